/* Row-wise log-softmax: out = (x - max) - log(sum exp(x - max)), sums in double. */
#include <math.h>

void log_softmax_f32(int rows, int cols, const float* x, float* out) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + (long long)r * cols;
    float* orow = out + (long long)r * cols;
    double mx = -INFINITY;
    for (int c = 0; c < cols; ++c)
      if ((double)xr[c] > mx) mx = (double)xr[c];
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) sum += exp((double)xr[c] - mx);
    const double lse = log(sum);
    for (int c = 0; c < cols; ++c) orow[c] = (float)(((double)xr[c] - mx) - lse);
  }
}
