// (2r+1)^2 box mean with clamp-to-edge borders: the clamped 2-D window is the product of two clamped
// 1-D windows, so the reference runs a horizontal pass into a temporary and then a vertical pass.
#include <stdlib.h>

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void box_filter(int h, int w, int r, const double* in, double* out) {
  size_t cells = (size_t)h * (size_t)w;
  if (cells == 0) return;
  double* tmp = (double*)malloc(cells * sizeof(double));
  if (!tmp) return;
  for (int y = 0; y < h; ++y) {
    const double* row = in + (size_t)y * w;
    for (int x = 0; x < w; ++x) {
      double s = 0.0;
      for (int d = -r; d <= r; ++d) s += row[clampi(x + d, 0, w - 1)];
      tmp[(size_t)y * w + x] = s;
    }
  }
  const double inv = 1.0 / ((double)(2 * r + 1) * (double)(2 * r + 1));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double s = 0.0;
      for (int d = -r; d <= r; ++d) s += tmp[(size_t)clampi(y + d, 0, h - 1) * w + x];
      out[(size_t)y * w + x] = s * inv;
    }
  }
  free(tmp);
}
