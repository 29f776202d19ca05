/* k explicit (FTCS) steps of the 1-D heat equation with fixed end values:
 *   v[i] = w[i] + r * (w[i-1] - 2*w[i] + w[i+1])   for 0 < i < n-1,  v[0] = w[0], v[n-1] = w[n-1].
 * Two buffers are ping-ponged; the result after k steps is written to u (k = 0 copies u0). */
#include <stdlib.h>
#include <string.h>

void heat1d_steps(int n, int k, double r, const double* u0, double* u) {
  if (n <= 0) return;
  double* a = (double*)malloc((size_t)n * sizeof(double));
  double* b = (double*)malloc((size_t)n * sizeof(double));
  if (!a || !b) {
    free(a);
    free(b);
    return;
  }
  memcpy(a, u0, (size_t)n * sizeof(double));
  for (int s = 0; s < k; ++s) {
    b[0] = a[0];
    b[n - 1] = a[n - 1];
    for (int i = 1; i < n - 1; ++i) b[i] = a[i] + r * (a[i - 1] - 2.0 * a[i] + a[i + 1]);
    double* t = a;
    a = b;
    b = t;
  }
  memcpy(u, a, (size_t)n * sizeof(double));
  free(a);
  free(b);
}
