/* out = res + LayerNorm(x) * gamma + beta; two-pass mean / biased variance in double. */
#include <math.h>

void layernorm_residual_f32(int rows, int cols, float eps, const float* x, const float* res, const float* gamma,
                            const float* beta, float* out) {
  for (int r = 0; r < rows; ++r) {
    const long long base = (long long)r * cols;
    double mean = 0.0;
    for (int c = 0; c < cols; ++c) mean += (double)x[base + c];
    mean /= (double)cols;
    double var = 0.0;
    for (int c = 0; c < cols; ++c) {
      const double dlt = (double)x[base + c] - mean;
      var += dlt * dlt;
    }
    var /= (double)cols;
    const double inv = 1.0 / sqrt(var + (double)eps);
    for (int c = 0; c < cols; ++c)
      out[base + c] =
          (float)((double)res[base + c] + ((double)x[base + c] - mean) * inv * (double)gamma[c] + (double)beta[c]);
  }
}
