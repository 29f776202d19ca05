/* out[0] = sum_i x[i]*y[i], accumulated with Neumaier's compensated summation so
 * the reference is more accurate than any plain double summation order. */
#include <math.h>

void dot_f64(int n, const double* x, const double* y, double* out) {
  double sum = 0.0, comp = 0.0;
  for (int i = 0; i < n; ++i) {
    double p = x[i] * y[i];
    double t = sum + p;
    if (fabs(sum) >= fabs(p))
      comp += (sum - t) + p;
    else
      comp += (p - t) + sum;
    sum = t;
  }
  out[0] = sum + comp;
}
