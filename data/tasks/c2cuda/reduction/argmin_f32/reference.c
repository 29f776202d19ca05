/* out[0] = the smallest i with x[i] == min(x); -1 for an empty vector.
 * Comparison is the ordinary float '<' (so -0.0 and +0.0 tie; inputs have no NaN). */
void argmin_f32(int n, const float* x, int* out) {
  if (n <= 0) {
    out[0] = -1;
    return;
  }
  int best = 0;
  float bv = x[0];
  for (int i = 1; i < n; ++i) {
    if (x[i] < bv) {
      bv = x[i];
      best = i;
    }
  }
  out[0] = best;
}
