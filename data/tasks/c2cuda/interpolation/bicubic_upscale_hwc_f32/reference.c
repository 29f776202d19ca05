/* Bicubic (Keys a = -0.5) integer-factor upscaling of interleaved HWC images, align_corners = false,
   clamp-to-edge taps.  The source coordinate (o + 0.5)/s - 0.5 = (2o + 1 - s)/(2s) is split into a
   floor and a fraction with integer arithmetic; weights and sums are in double. */
#include <stddef.h>

static void keys_weights(double t, double wt[4]) {
  const double a = -0.5;
  const double x0 = t + 1.0, x1 = t, x2 = 1.0 - t, x3 = 2.0 - t;
  wt[0] = ((a * x0 - 5.0 * a) * x0 + 8.0 * a) * x0 - 4.0 * a;
  wt[1] = ((a + 2.0) * x1 - (a + 3.0)) * x1 * x1 + 1.0;
  wt[2] = ((a + 2.0) * x2 - (a + 3.0)) * x2 * x2 + 1.0;
  wt[3] = ((a * x3 - 5.0 * a) * x3 + 8.0 * a) * x3 - 4.0 * a;
}

static void axis_coord(int o, int s, int* i0, double* t) {
  long long num = 2LL * o + 1 - s, den = 2LL * s;
  long long q = num >= 0 ? num / den : -((-num + den - 1) / den);
  *i0 = (int)q;
  *t = (double)(num - q * den) / (double)den;
}

static int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

void bicubic_upscale_hwc_f32(int n, int h, int w, int c, int s, const float* in, float* out) {
  const int oh = h * s, ow = w * s;
  for (int img = 0; img < n; ++img) {
    const float* src = in + (size_t)img * h * w * c;
    float* dst = out + (size_t)img * oh * ow * c;
    for (int y = 0; y < oh; ++y) {
      int y0;
      double ty, wy[4];
      axis_coord(y, s, &y0, &ty);
      keys_weights(ty, wy);
      for (int x = 0; x < ow; ++x) {
        int x0;
        double tx, wx[4];
        axis_coord(x, s, &x0, &tx);
        keys_weights(tx, wx);
        for (int ch = 0; ch < c; ++ch) {
          double acc = 0.0;
          for (int ky = 0; ky < 4; ++ky) {
            const float* row = src + (size_t)clampi(y0 - 1 + ky, h - 1) * w * c;
            double hs = 0.0;
            for (int kx = 0; kx < 4; ++kx) hs += wx[kx] * row[(size_t)clampi(x0 - 1 + kx, w - 1) * c + ch];
            acc += wy[ky] * hs;
          }
          dst[((size_t)y * ow + x) * c + ch] = (float)acc;
        }
      }
    }
  }
}
