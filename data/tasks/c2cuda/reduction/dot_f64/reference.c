/* out[b] = sum_i x[b*n+i] * y[b*n+i], accumulated with Neumaier's compensated
 * summation so the reference is more accurate than any plain double summation order. */
#include <math.h>
#include <stdlib.h>

void dot_f64(int batch, int n, const double* x, const double* y, double* out) {
  for (int b = 0; b < batch; ++b) {
    const double* xs = x + (size_t)b * (size_t)n;
    const double* ys = y + (size_t)b * (size_t)n;
    double sum = 0.0, comp = 0.0;
    for (int i = 0; i < n; ++i) {
      double p = xs[i] * ys[i];
      double t = sum + p;
      if (fabs(sum) >= fabs(p))
        comp += (sum - t) + p;
      else
        comp += (p - t) + sum;
      sum = t;
    }
    out[b] = sum + comp;
  }
}
