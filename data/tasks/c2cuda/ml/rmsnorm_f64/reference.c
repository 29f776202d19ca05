/* out[r][c] = x[r][c] * w[c] / sqrt(sum_c x[r][c]^2 / cols + eps), sum of squares in order, in double. */
#include <math.h>
#include <stddef.h>

void rmsnorm_f64(int rows, int cols, double eps, const double* x, const double* w, double* out) {
  for (int r = 0; r < rows; ++r) {
    const double* xr = x + (size_t)r * (size_t)cols;
    double* o = out + (size_t)r * (size_t)cols;
    if (cols <= 0) continue;
    double ss = 0.0;
    for (int c = 0; c < cols; ++c) ss += xr[c] * xr[c];
    const double inv = 1.0 / sqrt(ss / (double)cols + eps);
    for (int c = 0; c < cols; ++c) o[c] = xr[c] * inv * w[c];
  }
}
