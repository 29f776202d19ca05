// strategy: shared_tiled — 256 outputs per block; taps processed in 256-wide chunks, each chunk's h slice and the matching x window (256+255 samples, zero-padded) staged in shared memory
#include <cuda_runtime.h>

namespace {

constexpr int kBO = 256;  // outputs per block == threads per block
constexpr int kTC = 256;  // taps per chunk

__global__ void __launch_bounds__(kBO) fir_shared_kernel(int n, int taps, const float* __restrict__ h,
                                                         const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float hs[kTC];
  __shared__ float xs[kBO + kTC - 1];
  const int t = threadIdx.x;
  const long long base = (long long)blockIdx.x * kBO;
  float acc = 0.0f;
  for (int k0 = 0; k0 < taps; k0 += kTC) {
    __syncthreads();  // previous chunk fully consumed
    hs[t] = (k0 + t < taps) ? __ldg(h + k0 + t) : 0.0f;
    // xs[j] holds x[base - k0 - (kTC - 1) + j]
    const long long xoff = base - k0 - (kTC - 1);
    for (int j = t; j < kBO + kTC - 1; j += kBO) {
      const long long g = xoff + j;
      xs[j] = (g >= 0 && g < n) ? __ldg(x + g) : 0.0f;
    }
    __syncthreads();
    // output base+t, tap k0+q needs x[base + t - k0 - q] = xs[t + kTC - 1 - q]
#pragma unroll 16
    for (int q = 0; q < kTC; ++q) acc += hs[q] * xs[t + kTC - 1 - q];
  }
  const long long i = base + t;
  if (i < n) y[i] = acc;
}

}  // namespace

extern "C" void fir_causal_f32(int n, int taps, const float* h, const float* x, float* y, cudaStream_t stream) {
  if (n <= 0) return;
  const unsigned int blocks = (unsigned int)((n + kBO - 1) / kBO);
  fir_shared_kernel<<<blocks, kBO, 0, stream>>>(n, taps, h, x, y);
}
