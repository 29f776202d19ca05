/* k steps of a D2Q9 lattice-Boltzmann BGK model on a periodic n x m grid (rows i, columns j).
 * Population q of cell (i, j) is f[q*n*m + i*m + j]. Lattice directions (cx = column step,
 * cy = row step) and weights:
 *   q:  0    1    2    3    4    5     6     7     8
 *   cx: 0    1    0   -1    0    1    -1    -1     1
 *   cy: 0    0    1    0   -1    1     1    -1    -1
 *   w: 4/9  1/9  1/9  1/9  1/9  1/36  1/36  1/36  1/36
 * One step, per cell: rho = f0 + f1 + ... + f8 (in that order),
 *   ux = (((((f1 - f3) + f5) - f6) - f7) + f8) / rho,  uy = (((((f2 - f4) + f5) + f6) - f7) - f8) / rho,
 *   usq = ux*ux + uy*uy,  cu = cx*ux + cy*uy,
 *   feq = w*rho*(1 + 3*cu + 4.5*cu*cu - 1.5*usq),  post = f - omega*(f - feq)   (collide)
 * and post is moved to cell ((i + cy) mod n, (j + cx) mod m) of plane q (stream). k = 0 copies. */
#include <stdlib.h>
#include <string.h>

static const int kCx[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int kCy[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};

void lbm_d2q9(int n, int m, int k, float omega, const float* f_in, float* f_out) {
  if (n <= 0 || m <= 0) return;
  const size_t plane = (size_t)n * (size_t)m;
  const float w[9] = {4.0f / 9.0f,  1.0f / 9.0f,  1.0f / 9.0f,  1.0f / 9.0f, 1.0f / 9.0f,
                      1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};
  float* a = (float*)malloc(9 * plane * sizeof(float));
  float* b = (float*)malloc(9 * plane * sizeof(float));
  if (!a || !b) {
    free(a);
    free(b);
    return;
  }
  memcpy(a, f_in, 9 * plane * sizeof(float));
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < m; ++j) {
        const size_t x = (size_t)i * m + j;
        float f[9];
        for (int q = 0; q < 9; ++q) f[q] = a[q * plane + x];
        float rho = f[0];
        for (int q = 1; q < 9; ++q) rho += f[q];
        const float ux = (((((f[1] - f[3]) + f[5]) - f[6]) - f[7]) + f[8]) / rho;
        const float uy = (((((f[2] - f[4]) + f[5]) + f[6]) - f[7]) - f[8]) / rho;
        const float usq = ux * ux + uy * uy;
        for (int q = 0; q < 9; ++q) {
          const float cu = (float)kCx[q] * ux + (float)kCy[q] * uy;
          const float feq = w[q] * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - 1.5f * usq);
          const float post = f[q] - omega * (f[q] - feq);
          const int ti = (i + kCy[q] + n) % n;
          const int tj = (j + kCx[q] + m) % m;
          b[q * plane + (size_t)ti * m + tj] = post;
        }
      }
    }
    float* t = a;
    a = b;
    b = t;
  }
  memcpy(f_out, a, 9 * plane * sizeof(float));
  free(a);
  free(b);
}
