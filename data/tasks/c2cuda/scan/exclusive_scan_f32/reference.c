/* Exclusive prefix sum: out[0] = 0, out[i] = x[0] + ... + x[i-1].
   Accumulated in double; each prefix is rounded once to float. */
void exclusive_scan_f32(int n, const float* x, float* out) {
  double acc = 0.0;
  for (int i = 0; i < n; ++i) {
    out[i] = (float)acc;
    acc += (double)x[i];
  }
}
