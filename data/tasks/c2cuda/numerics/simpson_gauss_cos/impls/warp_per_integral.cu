// strategy: warp_per_integral — one warp per integral, lanes interleave the quadrature points (lane-strided), cheap special functions (exp2f of a pre-scaled exponent, cospif of a pre-scaled angle), butterfly shuffle reduction; grid-stride over integrals
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
simpson_warp_kernel(int n, int m, const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  const float h = 1.0f / (float)m;
  for (int i = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < n; i += warps_total) {
    const float ka = -__ldg(a + i) * 1.4426950408889634f;  // exp(-a x^2) = 2^(ka x^2)
    const float kb = __ldg(b + i) * 0.3183098861837907f;   // cos(b x) = cospi(kb x)
    float s = 0.0f;
    for (int k = lane; k <= m; k += 32) {
      const float x = (float)k * h;
      const float w = (k == 0 || k == m) ? 1.0f : ((k & 1) ? 4.0f : 2.0f);
      s += w * exp2f(ka * x * x) * cospif(kb * x);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) out[i] = s * h * (1.0f / 3.0f);
  }
}

}  // namespace

extern "C" void simpson_gauss_cos(int n, int m, const float* a, const float* b, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int warps_per_block = kThreads / 32;
  int blocks = (n + warps_per_block - 1) / warps_per_block;
  if (blocks > 132 * 16) blocks = 132 * 16;
  simpson_warp_kernel<<<blocks, kThreads, 0, stream>>>(n, m, a, b, out);
}
