/* Raw autocorrelation r[l] = sum_{i=0}^{n-1-l} x[i] * x[i+l] for 0 <= l < lags (0 when l >= n).
   Accumulated in double, one rounding to float per lag. */
void autocorr_f32(int n, int lags, const float* x, float* r) {
  for (int l = 0; l < lags; ++l) {
    double s = 0.0;
    for (int i = 0; i + l < n; ++i) s += (double)x[i] * (double)x[i + l];
    r[l] = (float)s;
  }
}
