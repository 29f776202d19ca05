// Sobel gradient magnitude with clamp-to-edge borders.
//   gx = (p[-1][+1] + 2 p[0][+1] + p[+1][+1]) - (p[-1][-1] + 2 p[0][-1] + p[+1][-1])
//   gy = (p[+1][-1] + 2 p[+1][0] + p[+1][+1]) - (p[-1][-1] + 2 p[-1][0] + p[-1][+1])
// (p[dy][dx]); computed in double, rounded once.
#include <math.h>

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void sobel_mag(int h, int w, const float* in, float* out) {
  for (int y = 0; y < h; ++y) {
    const float* rt = in + (long long)clampi(y - 1, 0, h - 1) * w;
    const float* rm = in + (long long)y * w;
    const float* rb = in + (long long)clampi(y + 1, 0, h - 1) * w;
    for (int x = 0; x < w; ++x) {
      int xl = clampi(x - 1, 0, w - 1), xr = clampi(x + 1, 0, w - 1);
      double gx = ((double)rt[xr] + 2.0 * rm[xr] + rb[xr]) - ((double)rt[xl] + 2.0 * rm[xl] + rb[xl]);
      double gy = ((double)rb[xl] + 2.0 * rb[x] + rb[xr]) - ((double)rt[xl] + 2.0 * rt[x] + rt[xr]);
      out[(long long)y * w + x] = (float)sqrt(gx * gx + gy * gy);
    }
  }
}
