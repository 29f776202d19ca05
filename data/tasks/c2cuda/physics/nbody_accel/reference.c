/* All-pairs softened gravity: a_i = sum_j m_j * (r_j - r_i) / (|r_j - r_i|^2 + eps2)^(3/2).
 * The j == i term is zero (zero displacement), so it is included. Accumulated in double. */
#include <math.h>

void nbody_accel(int n, float eps2, const float* x, const float* y, const float* z,
                 const float* m, float* ax, float* ay, float* az) {
  for (int i = 0; i < n; ++i) {
    double sx = 0.0, sy = 0.0, sz = 0.0;
    const double xi = x[i], yi = y[i], zi = z[i];
    for (int j = 0; j < n; ++j) {
      const double dx = (double)x[j] - xi;
      const double dy = (double)y[j] - yi;
      const double dz = (double)z[j] - zi;
      const double r2 = dx * dx + dy * dy + dz * dz + (double)eps2;
      const double inv = 1.0 / sqrt(r2);
      const double s = (double)m[j] * inv * inv * inv;
      sx += s * dx;
      sy += s * dy;
      sz += s * dz;
    }
    ax[i] = (float)sx;
    ay[i] = (float)sy;
    az[i] = (float)sz;
  }
}
