// strategy: clenshaw_smem — a block owns 16 series x 256 points: the 16 coefficient rows are staged in shared memory (all lanes read the same word: broadcast), each thread keeps its point in a register and runs 4 Clenshaw recurrences at once for ILP; stores are coalesced along the points
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSeries = 16;
constexpr int kGroup = 4;

__global__ void __launch_bounds__(kThreads)
cheb_clenshaw_kernel(int nser, int npts, int deg, const float* __restrict__ coef, const float* __restrict__ x,
                     float* __restrict__ out) {
  extern __shared__ float s_c[];  // [kSeries][deg + 1]
  const int K = deg + 1;
  const int s0 = blockIdx.y * kSeries;
  const int rows = min(kSeries, nser - s0);
  for (int t = threadIdx.x; t < kSeries * K; t += kThreads) {
    const int r = t / K;
    s_c[t] = (r < rows) ? __ldg(coef + (long long)(s0 + r) * K + (t - r * K)) : 0.0f;
  }
  __syncthreads();
  const int p = blockIdx.x * kThreads + threadIdx.x;
  if (p >= npts) return;
  const float xv = __ldg(x + p);
  const float x2 = 2.0f * xv;
  for (int g = 0; g < kSeries; g += kGroup) {
    if (g >= rows) break;
    float b1[kGroup], b2[kGroup];
#pragma unroll
    for (int j = 0; j < kGroup; ++j) b1[j] = b2[j] = 0.0f;
    for (int k = deg; k >= 1; --k) {
#pragma unroll
      for (int j = 0; j < kGroup; ++j) {
        const float t = fmaf(x2, b1[j], s_c[(g + j) * K + k] - b2[j]);
        b2[j] = b1[j];
        b1[j] = t;
      }
    }
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
      if (g + j < rows) out[(long long)(s0 + g + j) * npts + p] = fmaf(xv, b1[j], s_c[(g + j) * K] - b2[j]);
    }
  }
}

}  // namespace

extern "C" void chebyshev_series_batch(int nser, int npts, int deg, const float* coef, const float* x, float* out,
                                       cudaStream_t stream) {
  if (nser <= 0 || npts <= 0) return;
  const size_t smem = sizeof(float) * kSeries * (size_t)(deg + 1);
  if (smem > 48 * 1024) cudaFuncSetAttribute(cheb_clenshaw_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  dim3 grid((unsigned int)((npts + kThreads - 1) / kThreads), (unsigned int)((nser + kSeries - 1) / kSeries));
  cheb_clenshaw_kernel<<<grid, kThreads, smem, stream>>>(nser, npts, deg, coef, x, out);
}
