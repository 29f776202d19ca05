/* Transposed CSR sparse matrix-vector product y = A^T * x (float data, double accumulation).
   Row r of A scatters vals[k] * x[r] into y[colidx[k]] for each of its nonzeros k. */
#include <stdlib.h>

void csrt_spmv_f32(int rows, int cols, int nnz, const int* rowptr, const int* colidx, const float* vals,
                   const float* x, float* y) {
  (void)nnz;
  double* acc = (double*)calloc(cols > 0 ? (size_t)cols : 1, sizeof(double));
  if (!acc) return;
  for (int r = 0; r < rows; ++r) {
    const double xr = (double)x[r];
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) acc[colidx[k]] += (double)vals[k] * xr;
  }
  for (int c = 0; c < cols; ++c) y[c] = (float)acc[c];
  free(acc);
}
