/* DIA (diagonal storage) sparse matrix-vector product, float data, double accumulation. */
#include <stddef.h>

void dia_spmv_f32(int rows, int cols, int ndiag, int band, const int* offsets, const float* data, const float* x,
                  float* y) {
  (void)band;
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int d = 0; d < ndiag; ++d) {
      const long long c = (long long)r + offsets[d];
      if (c >= 0 && c < cols) s += (double)data[(size_t)d * (size_t)rows + (size_t)r] * (double)x[c];
    }
    y[r] = (float)s;
  }
}
