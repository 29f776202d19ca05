// strategy: block_per_lag — one 256-thread block per lag, coalesced grid-stride dot product with 4 independent accumulators, deterministic warp-shuffle + shared-memory block reduction
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) autocorr_block_kernel(int n, int lags, const float* __restrict__ x,
                                                                  float* __restrict__ r) {
  __shared__ float warp_sums[kThreads / 32];
  const int l = blockIdx.x;
  const int t = threadIdx.x;
  const int m = n - l;  // number of terms (may be <= 0)
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  int i = t;
  for (; i + 3 * kThreads < m; i += 4 * kThreads) {
    s0 = fmaf(__ldg(x + i), __ldg(x + i + l), s0);
    s1 = fmaf(__ldg(x + i + kThreads), __ldg(x + i + kThreads + l), s1);
    s2 = fmaf(__ldg(x + i + 2 * kThreads), __ldg(x + i + 2 * kThreads + l), s2);
    s3 = fmaf(__ldg(x + i + 3 * kThreads), __ldg(x + i + 3 * kThreads + l), s3);
  }
  for (; i < m; i += kThreads) s0 = fmaf(__ldg(x + i), __ldg(x + i + l), s0);
  float s = (s0 + s1) + (s2 + s3);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  if ((t & 31) == 0) warp_sums[t >> 5] = s;
  __syncthreads();
  if (t < 32) {
    float v = (t < kThreads / 32) ? warp_sums[t] : 0.0f;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    if (t == 0) r[l] = v;
  }
}

}  // namespace

extern "C" void autocorr_f32(int n, int lags, const float* x, float* r, cudaStream_t stream) {
  if (lags <= 0) return;
  autocorr_block_kernel<<<(unsigned int)lags, kThreads, 0, stream>>>(n, lags, x, r);
}
