/* y = tanh(alpha * (A x) + b), dot products accumulated in double. */
#include <math.h>

void matvec_bias_tanh_f32(int rows, int cols, float alpha, const float* A, const float* x, const float* b, float* y) {
  for (int r = 0; r < rows; ++r) {
    const float* ar = A + (long long)r * cols;
    double s = 0.0;
    for (int c = 0; c < cols; ++c) s += (double)ar[c] * (double)x[c];
    y[r] = (float)tanh((double)alpha * s + (double)b[r]);
  }
}
