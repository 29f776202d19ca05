/* Batched Chebyshev series evaluation by Clenshaw's recurrence, double precision. */
void chebyshev_series_batch(int nser, int npts, int deg, const float* coef, const float* x, float* out) {
  for (int s = 0; s < nser; ++s) {
    const float* c = coef + (long long)s * (deg + 1);
    for (int p = 0; p < npts; ++p) {
      const double xv = (double)x[p];
      double b1 = 0.0, b2 = 0.0;
      for (int k = deg; k >= 1; --k) {
        const double t = 2.0 * xv * b1 - b2 + (double)c[k];
        b2 = b1;
        b1 = t;
      }
      out[(long long)s * npts + p] = (float)(xv * b1 - b2 + (double)c[0]);
    }
  }
}
