/* ELLPACK SpMV, column-major slots: slot j of row r is k = j*rows + r.
 * y[r] = sum over j < width of vals[k] * x[colidx[k]] (double accumulation); colidx < 0 marks padding. */
void spmv_ell_f32(int rows, int cols, int width, const int* colidx, const float* vals, const float* x,
                  float* y) {
  (void)cols;
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int j = 0; j < width; ++j) {
      const long long k = (long long)j * rows + r;
      const int c = colidx[k];
      if (c >= 0) s += (double)vals[k] * (double)x[c];
    }
    y[r] = (float)s;
  }
}
