/* y[r] = sum_c a[r*cols + c] * x[c], accumulated in double, rounded once to float. */
#include <stddef.h>

void matvec_f32(int rows, int cols, const float* a, const float* x, float* y) {
  for (int r = 0; r < rows; ++r) {
    const float* row = a + (size_t)r * (size_t)cols;
    double acc = 0.0;
    for (int c = 0; c < cols; ++c) acc += (double)row[c] * (double)x[c];
    y[r] = (float)acc;
  }
}
