/* Biquad IIR, direct form I, per channel, zero initial state; state and arithmetic in double. */
void biquad_iir(int nch, int len, float b0, float b1, float b2, float a1, float a2, const float* x, float* y) {
  const double B0 = b0, B1 = b1, B2 = b2, A1 = a1, A2 = a2;
  for (int c = 0; c < nch; ++c) {
    const float* xc = x + (long long)c * len;
    float* yc = y + (long long)c * len;
    double x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0;
    for (int t = 0; t < len; ++t) {
      const double x0 = xc[t];
      const double y0 = B0 * x0 + B1 * x1 + B2 * x2 - A1 * y1 - A2 * y2;
      yc[t] = (float)y0;
      x2 = x1;
      x1 = x0;
      y2 = y1;
      y1 = y0;
    }
  }
}
