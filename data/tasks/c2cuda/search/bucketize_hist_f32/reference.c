/* Bucketize n floats into the nb+1 buckets cut by ascending boundaries b, plus per-bucket counts. */
void bucketize_hist_f32(int n, int nb, const float* x, const float* b, int* idx, int* counts) {
  for (int j = 0; j <= nb; ++j) counts[j] = 0;
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    int lo = 0, hi = nb; /* upper_bound: b[0..lo) <= v, b[hi..nb) > v */
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (b[mid] <= v)
        lo = mid + 1;
      else
        hi = mid;
    }
    idx[i] = lo;
    counts[lo] += 1;
  }
}
