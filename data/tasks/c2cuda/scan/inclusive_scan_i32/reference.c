/* out[i] = x[0] + x[1] + ... + x[i] (inclusive prefix sum). */
void inclusive_scan_i32(int n, const int* x, int* out) {
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += x[i];
    out[i] = acc;
  }
}
