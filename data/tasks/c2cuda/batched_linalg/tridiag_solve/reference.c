/* Batched tridiagonal solve by the Thomas algorithm in double. */
#include <stdlib.h>

void tridiag_solve(int batch, int n, const float* a, const float* b, const float* c, const float* d, float* x) {
  double* cp = (double*)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  double* dp = (double*)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  for (int s = 0; s < batch; ++s) {
    const long long o = (long long)s * n;
    double cprev = 0.0, dprev = 0.0;
    for (int i = 0; i < n; ++i) {
      const double ai = i > 0 ? (double)a[o + i] : 0.0;
      const double ci = i < n - 1 ? (double)c[o + i] : 0.0;
      const double m = (double)b[o + i] - ai * cprev;
      cp[i] = ci / m;
      dp[i] = ((double)d[o + i] - ai * dprev) / m;
      cprev = cp[i];
      dprev = dp[i];
    }
    double xn = 0.0;
    for (int i = n - 1; i >= 0; --i) {
      xn = dp[i] - cp[i] * xn;
      x[o + i] = (float)xn;
    }
  }
  free(cp);
  free(dp);
}
