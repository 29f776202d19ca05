/* Per-column asymmetric uint8 quantisation with zero points. */
#include <math.h>

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

void quantize_cols_u8_asym(int rows, int cols, const float* x, unsigned char* q, float* scale, int* zp) {
  for (int c = 0; c < cols; ++c) {
    float lo = 0.0f, hi = 0.0f;
    for (int r = 0; r < rows; ++r) {
      float v = x[(long long)r * cols + c];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    float s = (hi - lo) / 255.0f;
    if (s == 0.0f) s = 1.0f;
    int z = (int)clampf(rintf(-lo / s), 0.0f, 255.0f);
    scale[c] = s;
    zp[c] = z;
    for (int r = 0; r < rows; ++r) {
      long long i = (long long)r * cols + c;
      float v = rintf(x[i] / s) + (float)z;
      q[i] = (unsigned char)(int)clampf(v, 0.0f, 255.0f);
    }
  }
}
