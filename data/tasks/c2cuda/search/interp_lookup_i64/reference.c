/* First index of each query among ascending 64-bit keys, or -1 when absent. */
void interp_lookup_i64(int n, int m, const long long* keys, const long long* q, int* pos) {
  for (int i = 0; i < m; ++i) {
    const long long v = q[i];
    int lo = 0, hi = n; /* lower_bound */
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (keys[mid] < v)
        lo = mid + 1;
      else
        hi = mid;
    }
    pos[i] = (lo < n && keys[lo] == v) ? lo : -1;
  }
}
