// strategy: block_diagonal — one block per chain with its DP table in shared memory (odd row stride, conflict-free); all cells of one interval length are computed in parallel, one thread per cell, with a block barrier between lengths
#include <cuda_runtime.h>
#include <climits>

#define MAXN 64

__global__ void __launch_bounds__(MAXN) mcm_block_kernel(int n, const int* __restrict__ d, int* __restrict__ cost) {
  __shared__ int m[MAXN * (MAXN + 1)];
  __shared__ int ds[MAXN + 1];
  const int b = blockIdx.x;
  const int t = threadIdx.x;
  const int S = n | 1;  // odd stride: m[i*S + k] for consecutive i falls in distinct banks
  const int* db = d + (size_t)b * (n + 1);
  for (int k = t; k <= n; k += blockDim.x) ds[k] = db[k];
  if (t < n) m[t * S + t] = 0;
  __syncthreads();
  for (int len = 2; len <= n; ++len) {
    const int i = t;
    if (i + len - 1 < n) {
      const int j = i + len - 1;
      const int di = ds[i], dj = ds[j + 1];
      int best = INT_MAX;
      for (int k = i; k < j; ++k) {
        int c = m[i * S + k] + m[(k + 1) * S + j] + di * ds[k + 1] * dj;
        best = min(best, c);
      }
      m[i * S + j] = best;
    }
    __syncthreads();
  }
  if (t == 0) cost[b] = n > 0 ? m[n - 1] : 0;
}

extern "C" void matrix_chain_batch(int B, int n, const int* d, int* cost, cudaStream_t stream) {
  if (B <= 0) return;
  mcm_block_kernel<<<B, MAXN, 0, stream>>>(n, d, cost);
}
