// strategy: warp_split_min — one warp per chain; the warp walks the cells of each interval length and splits the k range of every cell across its lanes, combining with a __shfl_xor_sync min reduction; the table is kept twice in shared memory (row-major and transposed) so both operands of a split are unit-stride reads
#include <cuda_runtime.h>
#include <climits>

#define FULL_MASK 0xffffffffu

__global__ void mcm_warp_kernel(int B, int n, const int* __restrict__ d, int* __restrict__ cost) {
  extern __shared__ int smem[];
  const int lane = threadIdx.x & 31;
  const int w = threadIdx.x >> 5;
  const int b = blockIdx.x * (blockDim.x >> 5) + w;
  if (b >= B) return;  // uniform per warp; no block barriers below
  const int nn = n * n;
  int* M = smem + (size_t)w * (2 * nn + n + 1);  // M[i*n + j] = m[i][j]
  int* MT = M + nn;                               // MT[j*n + i] = m[i][j]
  int* ds = MT + nn;
  const int* db = d + (size_t)b * (n + 1);
  for (int k = lane; k <= n; k += 32) ds[k] = db[k];
  for (int i = lane; i < n; i += 32) {
    M[i * n + i] = 0;
    MT[i * n + i] = 0;
  }
  __syncwarp();
  for (int len = 2; len <= n; ++len) {
    for (int i = 0; i + len - 1 < n; ++i) {
      const int j = i + len - 1;
      const int di = ds[i], dj = ds[j + 1];
      int best = INT_MAX;
      for (int k = i + lane; k < j; k += 32) {
        int c = M[i * n + k] + MT[j * n + k + 1] + di * ds[k + 1] * dj;
        best = min(best, c);
      }
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) best = min(best, __shfl_xor_sync(FULL_MASK, best, off));
      if (lane == 0) {
        M[i * n + j] = best;
        MT[j * n + i] = best;
      }
    }
    __syncwarp();  // this length's cells are visible before the next length reads them
  }
  if (lane == 0) cost[b] = n > 0 ? M[n - 1] : 0;
}

extern "C" void matrix_chain_batch(int B, int n, const int* d, int* cost, cudaStream_t stream) {
  if (B <= 0) return;
  const size_t per_warp = sizeof(int) * (2 * (size_t)n * n + n + 1);
  int wpb = 4;
  while (wpb > 1 && per_warp * wpb > 40 * 1024) --wpb;
  const int blocks = (B + wpb - 1) / wpb;
  mcm_warp_kernel<<<blocks, wpb * 32, per_warp * wpb, stream>>>(B, n, d, cost);
}
