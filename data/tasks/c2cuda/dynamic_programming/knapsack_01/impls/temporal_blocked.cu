// strategy: temporal_blocked — items are applied 16 at a time per launch: each block stages a capacity window plus a left halo of 16*64 cells (the largest total weight of 16 items) in shared memory and advances it through all 16 item rows there, the valid region shrinking from the left like a temporally blocked stencil; N/16 launches instead of N
#include <cuda_runtime.h>

#define KB 16                 // items per launch
#define MAXW 64               // largest item weight (task contract)
#define HALO (KB * MAXW)      // 1024 cells
#define TW 4096               // output capacities per block
#define SPAN (HALO + TW)
#define THREADS 512

__global__ void __launch_bounds__(THREADS)
    knapsack_tb_kernel(int W, int k0, int kcnt, const int* __restrict__ wt, const int* __restrict__ val,
                       const int* __restrict__ src, int* __restrict__ dst) {
  __shared__ int buf[2][SPAN];
  __shared__ int swt[KB], sval[KB];
  const long long base = (long long)blockIdx.x * TW - HALO;  // capacity of buf index 0
  for (int j = threadIdx.x; j < SPAN; j += THREADS) {
    const long long w = base + j;
    buf[0][j] = (w >= 0 && w <= W) ? src[w] : 0;
  }
  if (threadIdx.x < kcnt) {
    swt[threadIdx.x] = wt[k0 + threadIdx.x];
    sval[threadIdx.x] = val[k0 + threadIdx.x];
  }
  __syncthreads();
  int cur = 0;
  for (int q = 0; q < kcnt; ++q) {
    const int c = swt[q], v = sval[q];
    // after item q the entries j >= (sum of the first q+1 weights) <= HALO are exact; below that is scratch
    for (int j = threadIdx.x; j < SPAN; j += THREADS) {
      int x = buf[cur][j];
      if (j >= c && base + j - c >= 0) x = max(x, buf[cur][j - c] + v);
      buf[cur ^ 1][j] = x;
    }
    __syncthreads();
    cur ^= 1;
  }
  for (int j = HALO + threadIdx.x; j < SPAN; j += THREADS) {
    const long long w = base + j;
    if (w <= W) dst[w] = buf[cur][j];
  }
}

extern "C" void knapsack_01(int N, int W, const int* wt, const int* val, int* dp, cudaStream_t stream) {
  if (W < 0) return;
  const int launches = (N + KB - 1) / KB;
  int* tmp = nullptr;
  cudaMallocAsync((void**)&tmp, sizeof(int) * ((size_t)W + 1), stream);
  int* x = (launches % 2 == 0) ? dp : tmp;  // after `launches` swaps the final row lands in dp
  int* y = (launches % 2 == 0) ? tmp : dp;
  cudaMemsetAsync(x, 0, sizeof(int) * ((size_t)W + 1), stream);
  const int blocks = (int)(((long long)W + 1 + TW - 1) / TW);
  for (int l = 0; l < launches; ++l) {
    const int k0 = l * KB;
    const int kcnt = N - k0 < KB ? N - k0 : KB;
    knapsack_tb_kernel<<<blocks, THREADS, 0, stream>>>(W, k0, kcnt, wt, val, x, y);
    int* t = x;
    x = y;
    y = t;
  }
  cudaFreeAsync(tmp, stream);
}
