/* Cubic Hermite spline with finite-difference tangents on non-uniform knots (duplicates allowed),
   evaluated by binary search; arithmetic in double. */
#include <stddef.h>

static double tangent(int n, const float* x, const float* y, int k) {
  int a = k > 0 ? k - 1 : 0;
  int b = k < n - 1 ? k + 1 : n - 1;
  double dx = (double)x[b] - (double)x[a];
  if (!(dx > 0.0)) return 0.0;
  return ((double)y[b] - (double)y[a]) / dx;
}

void hermite_spline_eval_f32(int n, int m, const float* x, const float* y, const float* q, float* out) {
  for (int j = 0; j < m; ++j) {
    float qc = q[j];
    if (qc < x[0]) qc = x[0];
    if (qc >= x[n - 1]) {
      out[j] = y[n - 1];
      continue;
    }
    /* first index with x > qc: lies in [1, n-1] */
    int lo = 1, hi = n - 1;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (x[mid] > qc) hi = mid; else lo = mid + 1;
    }
    const int i = lo - 1;
    const double h = (double)x[i + 1] - (double)x[i];
    const double t = ((double)qc - (double)x[i]) / h;
    const double t2 = t * t, t3 = t2 * t;
    const double h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
    const double h10 = t3 - 2.0 * t2 + t;
    const double h01 = -2.0 * t3 + 3.0 * t2;
    const double h11 = t3 - t2;
    out[j] = (float)(h00 * y[i] + h10 * h * tangent(n, x, y, i) + h01 * y[i + 1] + h11 * h * tangent(n, x, y, i + 1));
  }
}
