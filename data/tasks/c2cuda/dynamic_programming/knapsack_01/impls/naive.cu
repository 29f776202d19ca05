// strategy: naive (weak) — one kernel launch per item over all W+1 capacities, ping-ponging two full rows through global memory (N launches, every row re-read from DRAM/L2)
#include <cuda_runtime.h>

__global__ void knapsack_item_kernel(int W, int k, const int* wt, const int* val, const int* cur, int* next) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w > W) return;
  int c = wt[k];
  int x = cur[w];
  if (w >= c) x = max(x, cur[w - c] + val[k]);
  next[w] = x;
}

extern "C" void knapsack_01(int N, int W, const int* wt, const int* val, int* dp, cudaStream_t stream) {
  if (W < 0) return;
  int* tmp = nullptr;
  cudaMallocAsync((void**)&tmp, sizeof(int) * ((size_t)W + 1), stream);
  int* x = (N % 2 == 0) ? dp : tmp;  // after N swaps the last row lands in dp
  int* y = (N % 2 == 0) ? tmp : dp;
  cudaMemsetAsync(x, 0, sizeof(int) * ((size_t)W + 1), stream);
  const int threads = 256;
  const int blocks = (int)(((long long)W + 1 + threads - 1) / threads);
  for (int k = 0; k < N; ++k) {
    knapsack_item_kernel<<<blocks, threads, 0, stream>>>(W, k, wt, val, x, y);
    int* t = x;
    x = y;
    y = t;
  }
  cudaFreeAsync(tmp, stream);
}
