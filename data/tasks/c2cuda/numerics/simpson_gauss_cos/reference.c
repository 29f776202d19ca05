/* Composite Simpson integration of exp(-a x^2) cos(b x) over [0, 1], double evaluation. */
#include <math.h>

void simpson_gauss_cos(int n, int m, const float* a, const float* b, float* out) {
  const double h = 1.0 / (double)m;
  for (int i = 0; i < n; ++i) {
    const double ai = (double)a[i], bi = (double)b[i];
    double s = 0.0;
    for (int k = 0; k <= m; ++k) {
      const double x = (double)k * h;
      const double w = (k == 0 || k == m) ? 1.0 : ((k & 1) ? 4.0 : 2.0);
      s += w * exp(-ai * x * x) * cos(bi * x);
    }
    out[i] = (float)(s * h / 3.0);
  }
}
