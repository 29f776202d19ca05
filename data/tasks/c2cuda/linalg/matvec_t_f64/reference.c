/* y[c] = sum_r a[r*cols + c] * x[r] for a row-major rows x cols matrix (y = A^T x), rows summed in order. */
#include <stddef.h>

void matvec_t_f64(int rows, int cols, const double* a, const double* x, double* y) {
  for (int c = 0; c < cols; ++c) y[c] = 0.0;
  for (int r = 0; r < rows; ++r) {
    const double* row = a + (size_t)r * (size_t)cols;
    const double xr = x[r];
    for (int c = 0; c < cols; ++c) y[c] += row[c] * xr;
  }
}
