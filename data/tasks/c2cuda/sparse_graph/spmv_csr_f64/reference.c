/* CSR sparse matrix-vector product y = A * x, double precision, nonzeros summed in order. */
void spmv_csr_f64(int rows, int cols, int nnz, const int* rowptr, const int* colidx, const double* vals,
                  const double* x, double* y) {
  (void)cols;
  (void)nnz;
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) s += vals[k] * x[colidx[k]];
    y[r] = s;
  }
}
