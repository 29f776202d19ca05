/* Symmetric per-row int8 quantisation: scale = max|x| / 127, q = clamp(rint(x / scale)). */
#include <math.h>

void quantize_rows_i8(int rows, int cols, const float* x, signed char* q, float* scale) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + (long long)r * cols;
    signed char* qr = q + (long long)r * cols;
    float amax = 0.0f;
    for (int c = 0; c < cols; ++c) {
      float a = fabsf(xr[c]);
      if (a > amax) amax = a;
    }
    float s = amax / 127.0f;
    scale[r] = s;
    for (int c = 0; c < cols; ++c) {
      if (s == 0.0f) {
        qr[c] = 0;
        continue;
      }
      float v = rintf(xr[c] / s); /* default rounding mode: nearest, ties to even */
      if (v > 127.0f) v = 127.0f;
      if (v < -127.0f) v = -127.0f;
      qr[c] = (signed char)(int)v;
    }
  }
}
