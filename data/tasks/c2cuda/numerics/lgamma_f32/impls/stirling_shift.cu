// strategy: stirling_shift — single-precision Stirling series (4 correction terms) at z >= 8, reached by the minimal number of recurrence shifts z = x + k with the product x(x+1)...(x+k-1) subtracted as one logarithm; data-dependent loop per element, grid-stride scalar loads
#include <cuda_runtime.h>

namespace {

__device__ __forceinline__ float stirling(float z) {
  const float r = 1.0f / z, r2 = r * r;
  const float corr = r * (1.0f / 12.0f - r2 * (1.0f / 360.0f - r2 * (1.0f / 1260.0f - r2 * (1.0f / 1680.0f))));
  return (z - 0.5f) * logf(z) - z + 0.91893853320467274f + corr;  // 0.5*ln(2*pi)
}

__global__ void lgamma_stirling_kernel(int n, const float* __restrict__ x, float* __restrict__ out) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float z = __ldg(x + i);
    float p = 1.0f;
    while (z < 8.0f) {
      p *= z;
      z += 1.0f;
    }
    out[i] = stirling(z) - logf(p);
  }
}

}  // namespace

extern "C" void lgamma_f32(int n, const float* x, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  int blocks = (n + threads - 1) / threads;
  if (blocks > 132 * 16) blocks = 132 * 16;
  lgamma_stirling_kernel<<<blocks, threads, 0, stream>>>(n, x, out);
}
