// strategy: naive (weak) — one thread per pair runs the quadratic DP cell by cell with its row in global scratch, pair-major (uncoalesced, La*Lb memory round trips per pair)
#include <cuda_runtime.h>

__global__ void lcs_naive_kernel(int P, int La, int Lb, const unsigned char* a, const unsigned char* b, int* rows,
                                 int* lcs) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  const unsigned char* s = a + (size_t)p * La;
  const unsigned char* t = b + (size_t)p * Lb;
  int* row = rows + (size_t)p * (La + 1);
  for (int i = 0; i <= La; ++i) row[i] = 0;
  for (int j = 0; j < Lb; ++j) {
    const unsigned char c = t[j];
    int diag = 0;  // C[i-1][j-1] with i = 1
    for (int i = 1; i <= La; ++i) {
      int up = row[i];  // C[i][j-1] in the reference's orientation (previous column of b)
      int v = max(up, row[i - 1]);
      if (s[i - 1] == c) v = max(v, diag + 1);
      diag = up;
      row[i] = v;
    }
  }
  lcs[p] = row[La];
}

extern "C" void lcs_batch(int P, int La, int Lb, const unsigned char* a, const unsigned char* b, int* lcs,
                          cudaStream_t stream) {
  if (P <= 0) return;
  int* rows = nullptr;
  cudaMallocAsync((void**)&rows, sizeof(int) * (size_t)P * (size_t)(La + 1), stream);
  const int threads = 128;
  lcs_naive_kernel<<<(P + threads - 1) / threads, threads, 0, stream>>>(P, La, Lb, a, b, rows, lcs);
  cudaFreeAsync(rows, stream);
}
