/* Orthonormal 8x8 block DCT-II, separable form X = C f C^T with
   C[u][x] = a(u) cos((2x+1) u pi / 16), a(0) = sqrt(1/8), a(u>0) = sqrt(2/8); computed in double. */
#include <math.h>

void dct8x8_f32(int bh, int bw, const float* img, float* out) {
  const double pi = 3.14159265358979323846;
  double c[8][8];
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x) c[u][x] = (u == 0 ? sqrt(1.0 / 8.0) : sqrt(2.0 / 8.0)) * cos((2 * x + 1) * u * pi / 16.0);
  const long long w = 8LL * bw;
  for (int bi = 0; bi < bh; ++bi) {
    for (int bj = 0; bj < bw; ++bj) {
      const float* f = img + 8LL * bi * w + 8LL * bj;
      double t[8][8];  // t[x][v] = sum_y f[x][y] c[v][y]
      for (int x = 0; x < 8; ++x)
        for (int v = 0; v < 8; ++v) {
          double s = 0.0;
          for (int y = 0; y < 8; ++y) s += (double)f[x * w + y] * c[v][y];
          t[x][v] = s;
        }
      float* o = out + 8LL * bi * w + 8LL * bj;
      for (int u = 0; u < 8; ++u)
        for (int v = 0; v < 8; ++v) {
          double s = 0.0;
          for (int x = 0; x < 8; ++x) s += c[u][x] * t[x][v];
          o[u * w + v] = (float)s;
        }
    }
  }
}
