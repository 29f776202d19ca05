/* Count and weight sum of the sorted keys inside each half-open query interval [lo, lo + len). */
#include <stdlib.h>

static int lower_bound_f32(const float* a, int n, float x) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void range_weight_query_f32(int n, int m, const float* keys, const float* w, const float* qlo, const float* qlen,
                            int* count, float* wsum) {
  double* prefix = (double*)malloc(sizeof(double) * ((size_t)n + 1));
  if (!prefix) return;
  prefix[0] = 0.0;
  for (int i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + (double)w[i];
  for (int i = 0; i < m; ++i) {
    const float lo = qlo[i];
    const float hi = lo + qlen[i];
    const int a = lower_bound_f32(keys, n, lo), b = lower_bound_f32(keys, n, hi);
    count[i] = b - a;
    wsum[i] = (float)(prefix[b] - prefix[a]);
  }
  free(prefix);
}
