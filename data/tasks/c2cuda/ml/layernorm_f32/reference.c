/* out[r][c] = (x[r][c] - mean_r) / sqrt(var_r + eps) * gamma[c] + beta[c], mean and biased variance
   of each row by an exact two-pass computation in double. */
#include <math.h>
#include <stddef.h>

void layernorm_f32(int rows, int cols, float eps, const float* x, const float* gamma, const float* beta, float* out) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + (size_t)r * (size_t)cols;
    float* o = out + (size_t)r * (size_t)cols;
    if (cols <= 0) continue;
    double mean = 0.0;
    for (int c = 0; c < cols; ++c) mean += (double)xr[c];
    mean /= (double)cols;
    double var = 0.0;
    for (int c = 0; c < cols; ++c) {
      const double d = (double)xr[c] - mean;
      var += d * d;
    }
    var /= (double)cols;
    const double rstd = 1.0 / sqrt(var + (double)eps);
    for (int c = 0; c < cols; ++c) o[c] = (float)(((double)xr[c] - mean) * rstd * (double)gamma[c] + (double)beta[c]);
  }
}
