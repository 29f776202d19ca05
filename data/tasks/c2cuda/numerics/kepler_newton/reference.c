/* Kepler's equation by a fixed number of Newton steps, double precision. */
#include <math.h>

void kepler_newton(int n, int iters, const float* M, const float* ecc, float* E) {
  for (int i = 0; i < n; ++i) {
    const double m = (double)M[i];
    const double e = (double)ecc[i];
    double x = m + e * sin(m);
    for (int k = 0; k < iters; ++k) x -= (x - e * sin(x) - m) / (1.0 - e * cos(x));
    E[i] = (float)x;
  }
}
