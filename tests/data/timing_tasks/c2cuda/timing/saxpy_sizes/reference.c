/* out[i] = a * x[i] + y[i]; the product is exact in double, so the result is
 * the correctly rounded single-precision value (up to a double rounding). */
void saxpy_f32(int n, float a, const float* x, const float* y, float* out) {
  for (int i = 0; i < n; ++i) {
    out[i] = (float)((double)a * (double)x[i] + (double)y[i]);
  }
}
