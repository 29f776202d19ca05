/* Decimating FIR (valid part): y[q] = sum_{k<taps} h[k] * x[q*dec + k]; double accumulation. */
void fir_decimate_f32(int nout, int taps, int dec, const float* h, const float* x, float* y) {
  for (int q = 0; q < nout; ++q) {
    const float* xs = x + (long long)q * dec;
    double s = 0.0;
    for (int k = 0; k < taps; ++k) s += (double)h[k] * (double)xs[k];
    y[q] = (float)s;
  }
}
