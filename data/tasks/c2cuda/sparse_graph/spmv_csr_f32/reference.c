/* CSR sparse matrix-vector product y = A * x (float data, double accumulation). */
void spmv_csr_f32(int rows, int cols, int nnz, const int* rowptr, const int* colidx, const float* vals,
                  const float* x, float* y) {
  (void)cols;
  (void)nnz;
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) s += (double)vals[k] * (double)x[colidx[k]];
    y[r] = (float)s;
  }
}
