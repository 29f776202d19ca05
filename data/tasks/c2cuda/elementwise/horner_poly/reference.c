/* out[i] = c[0] + c[1]*x + ... + c[deg]*x^deg, evaluated by Horner's rule in
 * double precision and rounded once to float. */
void horner_poly_f32(int n, int deg, const float* coeffs, const float* x, float* out) {
  for (int i = 0; i < n; ++i) {
    double xi = (double)x[i];
    double t = (double)coeffs[deg];
    for (int k = deg - 1; k >= 0; --k) t = t * xi + (double)coeffs[k];
    out[i] = (float)t;
  }
}
