/* Unsorted COO sparse matrix-vector product y = A * x (float data, double accumulation). */
#include <stdlib.h>

void coo_spmv_f32(int rows, int cols, int nnz, const int* rowidx, const int* colidx, const float* vals,
                  const float* x, float* y) {
  (void)cols;
  double* acc = (double*)calloc(rows > 0 ? (size_t)rows : 1, sizeof(double));
  if (!acc) return;
  for (int k = 0; k < nnz; ++k) acc[rowidx[k]] += (double)vals[k] * (double)x[colidx[k]];
  for (int r = 0; r < rows; ++r) y[r] = (float)acc[r];
  free(acc);
}
