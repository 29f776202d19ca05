/* per-row symmetric int8 quantisation of masked fp16 patterns (packed two per uint32), bit-exact. */
#include <math.h>
#include <stdint.h>

static float half_value(const unsigned int* x, long long i) {
  uint32_t p = (x[i >> 1] >> ((i & 1) ? 16 : 0)) & 0xFFFFu;
  p = (p & 0x8FFFu) | 0x3000u; /* exponent field 12..15: a normal half */
  float v = ldexpf((float)(1024u + (p & 1023u)), (int)((p >> 10) & 31u) - 25);
  return (p & 0x8000u) ? -v : v;
}

void quantize_rows_f16_i8(int rows, int cols, const unsigned int* x, signed char* q, float* scale) {
  for (int r = 0; r < rows; ++r) {
    const long long base = (long long)r * cols;
    float amax = 0.0f;
    for (int c = 0; c < cols; ++c) {
      float a = fabsf(half_value(x, base + c));
      if (a > amax) amax = a;
    }
    if (amax == 0.0f) {
      scale[r] = 0.0f;
      for (int c = 0; c < cols; ++c) q[base + c] = 0;
      continue;
    }
    scale[r] = amax / 127.0f;
    const float inv = 127.0f / amax;
    for (int c = 0; c < cols; ++c) {
      float v = rintf(half_value(x, base + c) * inv);
      if (v > 127.0f) v = 127.0f;
      if (v < -127.0f) v = -127.0f;
      q[base + c] = (signed char)v;
    }
  }
}
