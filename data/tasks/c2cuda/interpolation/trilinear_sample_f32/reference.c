/* Trilinear sampling of a volume at normalised query points with clamp-to-edge.  The voxel
   coordinate is one rounded float product (u * (n - 1)), clamped, so floor and fraction are exact;
   the blend is done in double. */
#include <math.h>
#include <stddef.h>

static void axis(float u, int n, int* i0, int* i1, double* f) {
  float c = u * (float)(n - 1);
  const float hi = (float)(n - 1);
  if (!(c > 0.0f)) c = 0.0f;
  if (c > hi) c = hi;
  int k = (int)floorf(c);
  *i0 = k;
  *i1 = k + 1 < n ? k + 1 : n - 1;
  *f = (double)c - (double)k;
}

void trilinear_sample_f32(int nz, int ny, int nx, int m, const float* vol, const float* pts, float* out) {
  for (int i = 0; i < m; ++i) {
    int x0, x1, y0, y1, z0, z1;
    double fx, fy, fz;
    axis(pts[3 * (size_t)i + 0], nx, &x0, &x1, &fx);
    axis(pts[3 * (size_t)i + 1], ny, &y0, &y1, &fy);
    axis(pts[3 * (size_t)i + 2], nz, &z0, &z1, &fz);
    const float* p00 = vol + ((size_t)z0 * ny + y0) * nx;
    const float* p01 = vol + ((size_t)z0 * ny + y1) * nx;
    const float* p10 = vol + ((size_t)z1 * ny + y0) * nx;
    const float* p11 = vol + ((size_t)z1 * ny + y1) * nx;
    double c00 = (1.0 - fx) * p00[x0] + fx * p00[x1];
    double c01 = (1.0 - fx) * p01[x0] + fx * p01[x1];
    double c10 = (1.0 - fx) * p10[x0] + fx * p10[x1];
    double c11 = (1.0 - fx) * p11[x0] + fx * p11[x1];
    double c0 = (1.0 - fy) * c00 + fy * c01;
    double c1 = (1.0 - fy) * c10 + fy * c11;
    out[i] = (float)((1.0 - fz) * c0 + fz * c1);
  }
}
