/* Bilinear grid_sample with zero padding, align_corners = false.  Unnormalised coordinates and
   weights in double; out-of-image corners contribute nothing. */
#include <math.h>
#include <stddef.h>

void grid_sample_bilinear_f32(int n, int c, int h, int w, int ho, int wo, const float* in, const float* grid,
                              float* out) {
  const size_t plane_in = (size_t)h * w, plane_out = (size_t)ho * wo;
  for (int b = 0; b < n; ++b) {
    for (size_t p = 0; p < plane_out; ++p) {
      const float* g = grid + ((size_t)b * plane_out + p) * 2;
      const double ix = (((double)g[0] + 1.0) * w - 1.0) / 2.0;
      const double iy = (((double)g[1] + 1.0) * h - 1.0) / 2.0;
      const double fx0 = floor(ix), fy0 = floor(iy);
      const double fx = ix - fx0, fy = iy - fy0;
      long long cx[2], cy[2];
      cx[0] = (long long)fx0; cx[1] = cx[0] + 1;
      cy[0] = (long long)fy0; cy[1] = cy[0] + 1;
      const double wxs[2] = {1.0 - fx, fx}, wys[2] = {1.0 - fy, fy};
      for (int ch = 0; ch < c; ++ch) {
        const float* src = in + ((size_t)b * c + ch) * plane_in;
        double acc = 0.0;
        for (int a = 0; a < 2; ++a) {
          if (cy[a] < 0 || cy[a] >= h) continue;
          for (int e = 0; e < 2; ++e) {
            if (cx[e] < 0 || cx[e] >= w) continue;
            acc += wys[a] * wxs[e] * src[(size_t)cy[a] * w + (size_t)cx[e]];
          }
        }
        out[((size_t)b * c + ch) * plane_out + p] = (float)acc;
      }
    }
  }
}
