/* Minimum distance from each point to an open polyline, in double. */
#include <math.h>

void polyline_distance(int n, int nv, const float* p, const float* v, float* out) {
  for (int i = 0; i < n; ++i) {
    const double x = p[2 * (long long)i], y = p[2 * (long long)i + 1];
    double best;
    {
      const double dx = x - (double)v[0], dy = y - (double)v[1];
      best = dx * dx + dy * dy;  /* vertex 0 (the whole answer when nv == 1) */
    }
    for (int k = 0; k + 1 < nv; ++k) {
      const double ax = v[2 * k], ay = v[2 * k + 1];
      const double ex = (double)v[2 * k + 2] - ax, ey = (double)v[2 * k + 3] - ay;
      const double len2 = ex * ex + ey * ey;
      double t = 0.0;
      if (len2 > 0.0) {
        t = ((x - ax) * ex + (y - ay) * ey) / len2;
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
      }
      const double dx = x - (ax + t * ex), dy = y - (ay + t * ey);
      const double d2 = dx * dx + dy * dy;
      if (d2 < best) best = d2;
    }
    out[i] = (float)sqrt(best);
  }
}
