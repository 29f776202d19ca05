/* out[0] = sum of x[0..n-1], accumulated in double and rounded once to float. */
void sum_f32(int n, const float* x, float* out) {
  double acc = 0.0;
  for (int i = 0; i < n; ++i) acc += (double)x[i];
  out[0] = (float)acc;
}
