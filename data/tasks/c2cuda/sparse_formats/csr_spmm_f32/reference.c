/* CSR sparse x dense matrix product C = A * B (float data, double accumulation). */
#include <stddef.h>
#include <stdlib.h>

void csr_spmm_f32(int rows, int cols, int n, int nnz, const int* rowptr, const int* colidx, const float* vals,
                  const float* B, float* C) {
  (void)cols;
  (void)nnz;
  double* acc = (double*)malloc(sizeof(double) * (n > 0 ? (size_t)n : 1));
  if (!acc) return;
  for (int r = 0; r < rows; ++r) {
    for (int j = 0; j < n; ++j) acc[j] = 0.0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) {
      const double v = (double)vals[k];
      const float* brow = B + (size_t)colidx[k] * (size_t)n;
      for (int j = 0; j < n; ++j) acc[j] += v * (double)brow[j];
    }
    float* crow = C + (size_t)r * (size_t)n;
    for (int j = 0; j < n; ++j) crow[j] = (float)acc[j];
  }
  free(acc);
}
