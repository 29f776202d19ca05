/* Causal FIR filter: y[i] = sum_{k=0}^{taps-1} h[k] * x[i-k], with x[j] = 0 for j < 0.
   Products and sums in double, one rounding to float per output. */
void fir_causal_f32(int n, int taps, const float* h, const float* x, float* y) {
  for (int i = 0; i < n; ++i) {
    const int kmax = (taps - 1 < i) ? taps - 1 : i;
    double s = 0.0;
    for (int k = 0; k <= kmax; ++k) s += (double)h[k] * (double)x[i - k];
    y[i] = (float)s;
  }
}
