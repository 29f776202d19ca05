/* Run-length encoding of an ascending int array: distinct values, their counts, zero padding. */
void rle_sorted_i32(int n, const int* a, int* vals, int* runs, int* nuniq) {
  int u = 0;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || a[i] != a[i - 1]) {
      vals[u] = a[i];
      runs[u] = 0;
      ++u;
    }
    runs[u - 1] += 1;
  }
  for (int k = u; k < n; ++k) {
    vals[k] = 0;
    runs[k] = 0;
  }
  nuniq[0] = u;
}
