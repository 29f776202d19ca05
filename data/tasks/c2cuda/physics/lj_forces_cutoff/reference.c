/* Lennard-Jones forces with cutoff rc in a periodic cube of side `box` (sigma = epsilon = 1).
 * Positions are fractional coordinates; the minimum-image displacement from i to j is
 *   d = x[j] - x[i];  d -= rint(d);  d *= box         (per axis)
 * and every j != i with r2 = dx*dx + dy*dy + dz*dz < rc*rc contributes
 *   s = 24 * inv2 * inv6 * (2*inv6 - 1)  with inv2 = 1/r2, inv6 = inv2^3;   F_i -= s * d. */
#include <math.h>

void lj_forces(int n, double rc, double box, const double* x, const double* y, const double* z,
               double* fx, double* fy, double* fz) {
  const double rc2 = rc * rc;
  for (int i = 0; i < n; ++i) {
    double sx = 0.0, sy = 0.0, sz = 0.0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      double dx = x[j] - x[i];
      double dy = y[j] - y[i];
      double dz = z[j] - z[i];
      dx = (dx - rint(dx)) * box;
      dy = (dy - rint(dy)) * box;
      dz = (dz - rint(dz)) * box;
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        const double inv2 = 1.0 / r2;
        const double inv6 = inv2 * inv2 * inv2;
        const double s = 24.0 * inv2 * inv6 * (2.0 * inv6 - 1.0);
        sx -= s * dx;
        sy -= s * dy;
        sz -= s * dz;
      }
    }
    fx[i] = sx;
    fy[i] = sy;
    fz[i] = sz;
  }
}
