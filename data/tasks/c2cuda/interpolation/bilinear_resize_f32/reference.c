/* Bilinear resize (align_corners = false, source coordinate clamped below at 0, upper neighbour
   clamped to the last row/column).  The source coordinate (o + 0.5) * in / out - 0.5 is the exact
   rational ((2o + 1) * in - out) / (2 * out), so the integer part and the fraction are taken with
   integer arithmetic; the blend is done in double. */
#include <stddef.h>
static void src_coord(int o, int n_in, int n_out, int* i0, int* i1, double* frac) {
  long long num = (long long)(2 * o + 1) * n_in - n_out;
  if (num < 0) num = 0;
  long long den = 2LL * n_out;
  long long q = num / den;
  *i0 = (int)q;
  *i1 = (q + 1 < n_in) ? (int)(q + 1) : n_in - 1;
  *frac = (double)(num - q * den) / (double)den;
}

void bilinear_resize_f32(int b, int ih, int iw, int oh, int ow, const float* in, float* out) {
  for (int img = 0; img < b; ++img) {
    const float* src = in + (size_t)img * ih * iw;
    float* dst = out + (size_t)img * oh * ow;
    for (int y = 0; y < oh; ++y) {
      int y0, y1;
      double fy;
      src_coord(y, ih, oh, &y0, &y1, &fy);
      const float* r0 = src + (size_t)y0 * iw;
      const float* r1 = src + (size_t)y1 * iw;
      for (int x = 0; x < ow; ++x) {
        int x0, x1;
        double fx;
        src_coord(x, iw, ow, &x0, &x1, &fx);
        double top = (1.0 - fx) * r0[x0] + fx * r0[x1];
        double bot = (1.0 - fx) * r1[x0] + fx * r1[x1];
        dst[(size_t)y * ow + x] = (float)((1.0 - fy) * top + fy * bot);
      }
    }
  }
}
