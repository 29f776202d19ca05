// strategy: tiled_partial_stats — kernel 1 computes 64x64 score tiles from shared-memory Q/K slabs (4x4 register micro-tiles), stores scaled scores and, per (row, tile), a partial max and partial sum of exponentials combined with 16-lane shuffles; kernel 2 merges the partials of a row (online-softmax rescaling) and normalises the row in one coalesced sweep
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int BM = 64, BN = 64, BK = 16;
constexpr int TM = 4, TN = 4;
constexpr int kThreads = 256;

// merge two (max, sum-of-exp relative to max) pairs; an empty pair has max = -inf and sum = 0
__device__ __forceinline__ void merge(float& m1, float& s1, float m2, float s2) {
  const float mx = fmaxf(m1, m2);
  const float a = (m1 == -INFINITY) ? 0.0f : s1 * expf(m1 - mx);
  const float b = (m2 == -INFINITY) ? 0.0f : s2 * expf(m2 - mx);
  m1 = mx;
  s1 = a + b;
}

__global__ void __launch_bounds__(kThreads)
qk_scores_kernel(int n, int m, int d, float scale, const float* __restrict__ q, const float* __restrict__ k,
                 float* __restrict__ p, float* __restrict__ pmax, float* __restrict__ psum, int ntiles) {
  __shared__ float Qs[BK][BM + 4];
  __shared__ float Ks[BK][BN + 4];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  for (int t0 = 0; t0 < d; t0 += BK) {
#pragma unroll
    for (int l = 0; l < (BM * BK) / kThreads; ++l) {
      const int idx = tid + l * kThreads;
      const int r = idx / BK, c = idx % BK;
      const int gq = row0 + r, gk = col0 + r, gt = t0 + c;
      Qs[c][r] = (gq < n && gt < d) ? q[(long long)gq * d + gt] : 0.0f;
      Ks[c][r] = (gk < m && gt < d) ? k[(long long)gk * d + gt] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = Qs[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = Ks[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int gr = row0 + ty + 16 * i;
    float lmax = -INFINITY;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int gc = col0 + tx + 16 * j;
      acc[i][j] *= scale;
      if (gc < m) lmax = fmaxf(lmax, acc[i][j]);
    }
    float lsum = 0.0f;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int gc = col0 + tx + 16 * j;
      if (gc < m) lsum += expf(acc[i][j] - lmax);
    }
    // the 16 lanes sharing this row (same ty, tx = 0..15) are one half of the warp: xor offsets < 16 stay inside it
#pragma unroll
    for (int off = 8; off > 0; off >>= 1) {
      const float om = __shfl_xor_sync(0xffffffffu, lmax, off);
      const float os = __shfl_xor_sync(0xffffffffu, lsum, off);
      merge(lmax, lsum, om, os);
    }
    if (gr < n) {
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        const int gc = col0 + tx + 16 * j;
        if (gc < m) p[(long long)gr * m + gc] = acc[i][j];
      }
      if (tx == 0) {
        pmax[(long long)gr * ntiles + blockIdx.x] = lmax;
        psum[(long long)gr * ntiles + blockIdx.x] = lsum;
      }
    }
  }
}

constexpr int kNormThreads = 256;

__global__ void __launch_bounds__(kNormThreads)
qk_normalise_kernel(int m, int ntiles, const float* __restrict__ pmax, const float* __restrict__ psum,
                    float* __restrict__ p) {
  __shared__ float wm[kNormThreads / 32], ws[kNormThreads / 32];
  const long long i = blockIdx.x;
  float mx = -INFINITY, sm = 0.0f;
  for (int t = threadIdx.x; t < ntiles; t += kNormThreads) merge(mx, sm, pmax[i * ntiles + t], psum[i * ntiles + t]);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const float om = __shfl_xor_sync(0xffffffffu, mx, off);
    const float os = __shfl_xor_sync(0xffffffffu, sm, off);
    merge(mx, sm, om, os);
  }
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 0) {
    wm[w] = mx;
    ws[w] = sm;
  }
  __syncthreads();
  mx = wm[0];
  sm = ws[0];
  for (int t = 1; t < kNormThreads / 32; ++t) merge(mx, sm, wm[t], ws[t]);
  const float inv = 1.0f / sm;
  float* prow = p + i * m;
  for (int j = threadIdx.x; j < m; j += kNormThreads) prow[j] = expf(prow[j] - mx) * inv;
}

}  // namespace

extern "C" void qk_softmax_f32(int n, int m, int d, float scale, const float* q, const float* k, float* p,
                               cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const int ntiles = (m + BN - 1) / BN;
  float* pmax = nullptr;
  float* psum = nullptr;
  const size_t count = (size_t)n * ntiles;
  cudaMallocAsync((void**)&pmax, sizeof(float) * count, stream);
  cudaMallocAsync((void**)&psum, sizeof(float) * count, stream);
  dim3 grid(ntiles, (n + BM - 1) / BM);
  qk_scores_kernel<<<grid, kThreads, 0, stream>>>(n, m, d, scale, q, k, p, pmax, psum, ntiles);
  qk_normalise_kernel<<<n, kNormThreads, 0, stream>>>(m, ntiles, pmax, psum, p);
  cudaFreeAsync(pmax, stream);
  cudaFreeAsync(psum, stream);
}
