// strategy: naive (weak) — one thread per chain runs the whole O(n^3) interval DP alone with its n x n table in global scratch, chain-major (uncoalesced, no shared memory)
#include <cuda_runtime.h>
#include <climits>

__global__ void mcm_naive_kernel(int B, int n, const int* d, int* tables, int* cost) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  const int* db = d + (size_t)b * (n + 1);
  int* m = tables + (size_t)b * n * n;
  for (int i = 0; i < n; ++i) m[i * n + i] = 0;
  for (int len = 2; len <= n; ++len) {
    for (int i = 0; i + len - 1 < n; ++i) {
      const int j = i + len - 1;
      int best = INT_MAX;
      for (int k = i; k < j; ++k) {
        int c = m[i * n + k] + m[(k + 1) * n + j] + db[i] * db[k + 1] * db[j + 1];
        best = min(best, c);
      }
      m[i * n + j] = best;
    }
  }
  cost[b] = n > 0 ? m[n - 1] : 0;
}

extern "C" void matrix_chain_batch(int B, int n, const int* d, int* cost, cudaStream_t stream) {
  if (B <= 0) return;
  int* tables = nullptr;
  cudaMallocAsync((void**)&tables, sizeof(int) * (size_t)B * (size_t)(n > 0 ? n * n : 1), stream);
  const int threads = 128;
  mcm_naive_kernel<<<(B + threads - 1) / threads, threads, 0, stream>>>(B, n, d, tables, cost);
  cudaFreeAsync(tables, stream);
}
