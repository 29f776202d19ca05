/* k Jacobi sweeps for lap(u) = f on an n x m grid (row-major, h^2 = h2):
 *   v[i][j] = 0.25 * (w[i-1][j] + w[i+1][j] + w[i][j-1] + w[i][j+1] - h2 * f[i][j])
 * for interior cells; border cells (first/last row, first/last column) keep their u0 value.
 * Computed in double (ping-pong buffers), rounded to float at the end; k = 0 copies u0. */
#include <stdlib.h>

void jacobi_poisson2d(int n, int m, int k, float h2, const float* u0, const float* f, float* u) {
  if (n <= 0 || m <= 0) return;
  const size_t total = (size_t)n * (size_t)m;
  double* a = (double*)malloc(total * sizeof(double));
  double* b = (double*)malloc(total * sizeof(double));
  if (!a || !b) {
    free(a);
    free(b);
    return;
  }
  for (size_t t = 0; t < total; ++t) a[t] = b[t] = (double)u0[t];
  const double hh = (double)h2;
  for (int s = 0; s < k; ++s) {
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 1; j < m - 1; ++j) {
        const size_t c = (size_t)i * m + j;
        b[c] = 0.25 * (a[c - m] + a[c + m] + a[c - 1] + a[c + 1] - hh * (double)f[c]);
      }
    }
    double* t = a;
    a = b;
    b = t;
  }
  for (size_t t = 0; t < total; ++t) u[t] = (float)a[t];
  free(a);
  free(b);
}
