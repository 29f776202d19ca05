/* Row-wise inclusive prefix sum of a row-major rows x cols matrix. */
#include <stddef.h>

void row_scan_f64(int rows, int cols, const double* x, double* out) {
  for (int r = 0; r < rows; ++r) {
    const double* xr = x + (size_t)r * (size_t)cols;
    double* orow = out + (size_t)r * (size_t)cols;
    double acc = 0.0;
    for (int c = 0; c < cols; ++c) {
      acc += xr[c];
      orow[c] = acc;
    }
  }
}
