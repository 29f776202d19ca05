/* Residual add followed by RMSNorm: h = x + res (rounded to float, also an output),
   y = h * w / sqrt(mean(h^2) + eps) with the mean accumulated in double. */
#include <math.h>

void residual_rmsnorm_f32(int rows, int cols, float eps, const float* x, const float* res, const float* w, float* h,
                          float* y) {
  for (int r = 0; r < rows; ++r) {
    const long long base = (long long)r * cols;
    double ss = 0.0;
    for (int c = 0; c < cols; ++c) {
      const float v = x[base + c] + res[base + c];
      h[base + c] = v;
      ss += (double)v * (double)v;
    }
    const double inv = 1.0 / sqrt(ss / (double)cols + (double)eps);
    for (int c = 0; c < cols; ++c) y[base + c] = (float)((double)h[base + c] * inv * (double)w[c]);
  }
}
