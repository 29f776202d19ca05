/* out[r] = sqrt(sum_c a[r*cols + c]^2), accumulated in double, rounded once to float. */
#include <math.h>
#include <stdlib.h>

void row_l2_norm_f32(int rows, int cols, const float* a, float* out) {
  for (int r = 0; r < rows; ++r) {
    const float* row = a + (size_t)r * (size_t)cols;
    double acc = 0.0;
    for (int c = 0; c < cols; ++c) {
      double v = (double)row[c];
      acc += v * v;
    }
    out[r] = (float)sqrt(acc);
  }
}
