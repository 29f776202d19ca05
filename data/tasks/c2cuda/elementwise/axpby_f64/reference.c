/* out[i] = alpha * x[i] + beta * y[i] in double precision. */
void axpby_f64(int n, double alpha, double beta, const double* x, const double* y, double* out) {
  for (int i = 0; i < n; ++i) {
    double ax = alpha * x[i];
    double by = beta * y[i];
    out[i] = ax + by;
  }
}
