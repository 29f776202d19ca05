// strategy: basis_gemm — recast as a matrix product out = C (nser x K) * T (K x npts): per 64x64 output tile and K-slab of 16, 64 threads extend the basis T_k(x_p) by the three-term recurrence in double into shared memory while the block stages the coefficient slab, then each thread accumulates a 4x4 register tile
#include <cuda_runtime.h>

namespace {

constexpr int kTile = 64;
constexpr int kSlab = 16;
constexpr int kThreads = 256;  // 16 x 16, each 4 x 4 outputs

__global__ void __launch_bounds__(kThreads)
cheb_gemm_kernel(int nser, int npts, int deg, const float* __restrict__ coef, const float* __restrict__ x,
                 float* __restrict__ out) {
  __shared__ float s_t[kSlab][kTile];  // basis: [k][point]
  __shared__ float s_c[kSlab][kTile];  // coefficients: [k][series]
  const int K = deg + 1;
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  const int p0 = blockIdx.x * kTile, s0 = blockIdx.y * kTile;
  // recurrence state of the basis for point p0 + threadIdx.x (threads 0..63): v_{k-1}, v_k with v_{-1} = x
  double xv = 0.0, prev = 0.0, cur = 1.0;
  if (threadIdx.x < kTile) {
    const int p = p0 + threadIdx.x;
    xv = (p < npts) ? (double)__ldg(x + p) : 0.0;
    prev = xv;
  }
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += kSlab) {
    if (threadIdx.x < kTile) {
      const bool live = p0 + threadIdx.x < npts;
#pragma unroll
      for (int kk = 0; kk < kSlab; ++kk) {
        s_t[kk][threadIdx.x] = (live && k0 + kk < K) ? (float)cur : 0.0f;
        const double next = 2.0 * xv * cur - prev;
        prev = cur;
        cur = next;
      }
    }
    for (int t = threadIdx.x; t < kSlab * kTile; t += kThreads) {
      const int kk = t & (kSlab - 1), r = t / kSlab;  // consecutive threads walk one coefficient row
      const int s = s0 + r, k = k0 + kk;
      s_c[kk][r] = (s < nser && k < K) ? __ldg(coef + (long long)s * K + k) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlab; ++kk) {
      float cv[4], tv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) cv[i] = s_c[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) tv[j] = s_t[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(cv[i], tv[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int s = s0 + ty + 16 * i;
    if (s >= nser) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int p = p0 + tx + 16 * j;
      if (p < npts) out[(long long)s * npts + p] = acc[i][j];
    }
  }
}

}  // namespace

extern "C" void chebyshev_series_batch(int nser, int npts, int deg, const float* coef, const float* x, float* out,
                                       cudaStream_t stream) {
  if (nser <= 0 || npts <= 0) return;
  dim3 grid((unsigned int)((npts + kTile - 1) / kTile), (unsigned int)((nser + kTile - 1) / kTile));
  cheb_gemm_kernel<<<grid, kThreads, 0, stream>>>(nser, npts, deg, coef, x, out);
}
