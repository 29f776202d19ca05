// strategy: register_blocked — each thread computes 8 consecutive outputs with a sliding 8-sample register window (one shared load + one broadcast tap load per 8 FMAs); x window staged in shared memory with one pad word per 8 to keep the stride-8 reads bank-conflict free
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 128;
constexpr int kR = 8;                   // outputs per thread
constexpr int kBO = kThreads * kR;      // outputs per block
constexpr int kTC = 256;                // taps per chunk
constexpr int kXW = kBO + kTC - 1;      // x window length
constexpr int kXS = kXW + kXW / 8 + 1;  // padded storage

__device__ __forceinline__ int pad(int j) { return j + (j >> 3); }

__global__ void __launch_bounds__(kThreads) fir_regblk_kernel(int n, int taps, const float* __restrict__ h,
                                                              const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float hs[kTC];
  __shared__ float xs[kXS];
  const int t = threadIdx.x;
  const long long base = (long long)blockIdx.x * kBO;
  float acc[kR];
#pragma unroll
  for (int r = 0; r < kR; ++r) acc[r] = 0.0f;

  for (int k0 = 0; k0 < taps; k0 += kTC) {
    __syncthreads();
    for (int q = t; q < kTC; q += kThreads) hs[q] = (k0 + q < taps) ? __ldg(h + k0 + q) : 0.0f;
    // window element j is x[base - k0 - (kTC - 1) + j]
    const long long xoff = base - k0 - (kTC - 1);
    for (int j = t; j < kXW; j += kThreads) {
      const long long g = xoff + j;
      xs[pad(j)] = (g >= 0 && g < n) ? __ldg(x + g) : 0.0f;
    }
    __syncthreads();
    // output base + t*kR + r with tap k0+q reads window element t*kR + r + kTC - 1 - q
    const int jb = t * kR + kTC - 1;
    float w[kR];
#pragma unroll
    for (int r = 0; r < kR; ++r) w[r] = xs[pad(jb + r)];
#pragma unroll 8
    for (int q = 0; q < kTC; ++q) {
      const float hq = hs[q];
#pragma unroll
      for (int r = 0; r < kR; ++r) acc[r] = fmaf(hq, w[r], acc[r]);
#pragma unroll
      for (int r = kR - 1; r > 0; --r) w[r] = w[r - 1];
      // next tap: element jb - (q + 1); its index is >= t*kR >= 0 while q + 1 < kTC
      if (q + 1 < kTC) w[0] = xs[pad(jb - q - 1)];
    }
  }
#pragma unroll
  for (int r = 0; r < kR; ++r) {
    const long long i = base + (long long)t * kR + r;
    if (i < n) y[i] = acc[r];
  }
}

}  // namespace

extern "C" void fir_causal_f32(int n, int taps, const float* h, const float* x, float* y, cudaStream_t stream) {
  if (n <= 0) return;
  const unsigned int blocks = (unsigned int)((n + kBO - 1) / kBO);
  fir_regblk_kernel<<<blocks, kThreads, 0, stream>>>(n, taps, h, x, y);
}
