/* Row-wise softmax: out[r][c] = exp(x[r][c] - max_r) / sum_c' exp(x[r][c'] - max_r), computed in double. */
#include <math.h>
#include <stddef.h>

void softmax_rows_f32(int rows, int cols, const float* x, float* out) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + (size_t)r * (size_t)cols;
    float* orow = out + (size_t)r * (size_t)cols;
    if (cols <= 0) continue;
    double mx = (double)xr[0];
    for (int c = 1; c < cols; ++c)
      if ((double)xr[c] > mx) mx = (double)xr[c];
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) sum += exp((double)xr[c] - mx);
    const double inv = 1.0 / sum;
    for (int c = 0; c < cols; ++c) orow[c] = (float)(exp((double)xr[c] - mx) * inv);
  }
}
