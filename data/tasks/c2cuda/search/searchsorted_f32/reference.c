/* Batched lower_bound of m float queries in an ascending float array of n elements. */
void searchsorted_f32(int n, int m, const float* a, const float* q, int* out) {
  for (int i = 0; i < m; ++i) {
    const float x = q[i];
    int lo = 0, hi = n; /* invariant: a[0..lo) < x, a[hi..n) >= x */
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (a[mid] < x)
        lo = mid + 1;
      else
        hi = mid;
    }
    out[i] = lo;
  }
}
