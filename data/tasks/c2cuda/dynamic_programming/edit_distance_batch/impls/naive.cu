// strategy: naive (weak) — one thread per pair runs the whole row-by-row DP with its row kept in global scratch laid out pair-major (uncoalesced, no reuse)
#include <cuda_runtime.h>

__global__ void edit_distance_naive_kernel(int P, int L, const unsigned char* a, const unsigned char* b,
                                           int* rows, int* dist) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  const unsigned char* s = a + (size_t)p * L;
  const unsigned char* t = b + (size_t)p * L;
  int* row = rows + (size_t)p * (L + 1);
  for (int j = 0; j <= L; ++j) row[j] = j;
  for (int i = 1; i <= L; ++i) {
    int diag = row[0];  // D[i-1][0]
    row[0] = i;
    for (int j = 1; j <= L; ++j) {
      int up = row[j];  // D[i-1][j]
      int v = min(min(up + 1, row[j - 1] + 1), diag + (s[i - 1] != t[j - 1]));
      diag = up;
      row[j] = v;
    }
  }
  dist[p] = row[L];
}

extern "C" void edit_distance_batch(int P, int L, const unsigned char* a, const unsigned char* b, int* dist,
                                    cudaStream_t stream) {
  if (P <= 0) return;
  int* rows = nullptr;
  cudaMallocAsync((void**)&rows, sizeof(int) * (size_t)P * (size_t)(L + 1), stream);
  const int threads = 128;
  edit_distance_naive_kernel<<<(P + threads - 1) / threads, threads, 0, stream>>>(P, L, a, b, rows, dist);
  cudaFreeAsync(rows, stream);
}
