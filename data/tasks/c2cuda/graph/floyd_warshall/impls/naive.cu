// strategy: naive (weak) — one kernel launch per pivot k, one thread per (i, j) but threadIdx.x walks down column j, so a warp touches addresses n ints apart (uncoalesced), every operand re-read from global memory
#include <cuda_runtime.h>

__global__ void fw_init_naive(int n, const int* w, int* d) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long nn = (long long)n * n;
  if (idx >= nn) return;
  int i = (int)(idx / n), j = (int)(idx % n);
  d[idx] = (i == j) ? 0 : w[idx];
}

__global__ void fw_step_naive(int n, int k, int* d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // row index on the fast thread dimension
  int j = blockIdx.y;
  if (i >= n) return;
  int cand = d[(size_t)i * n + k] + d[(size_t)k * n + j];
  if (cand < d[(size_t)i * n + j]) d[(size_t)i * n + j] = cand;
}

extern "C" void floyd_warshall(int n, const int* w, int* d, cudaStream_t stream) {
  if (n <= 0) return;
  long long nn = (long long)n * n;
  const int threads = 256;
  fw_init_naive<<<(unsigned int)((nn + threads - 1) / threads), threads, 0, stream>>>(n, w, d);
  dim3 grid((n + threads - 1) / threads, n);
  for (int k = 0; k < n; ++k) fw_step_naive<<<grid, threads, 0, stream>>>(n, k, d);
}
