/* High-water mark of a random walk: S_j = delta[0] + ... + delta[j] (64-bit),
   out[i] = max(S_0, ..., S_i). */
void high_water_mark(int n, const int* delta, long long* out) {
  long long s = 0, m = 0;
  for (int i = 0; i < n; ++i) {
    s += (long long)delta[i];
    if (i == 0 || s > m) m = s;
    out[i] = m;
  }
}
