/* fp16 axpby, bit-exact: out = half_rne(fmaf(a, x, b * y)), NaN -> 0x7FFF; halves packed two per uint32. */
#include <math.h>
#include <stdint.h>
#include <string.h>

/* exact binary16 -> float */
static float half_to_float(uint32_t hb) {
  uint32_t e = (hb >> 10) & 31u, m = hb & 1023u;
  float v;
  if (e == 0) v = ldexpf((float)m, -24);                       /* zero / subnormal: m * 2^-24 */
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = ldexpf((float)(m | 1024u), (int)e - 25);            /* (1024 + m) * 2^(e - 25) */
  return (hb & 0x8000u) ? -v : v;
}

/* float -> binary16, round to nearest even; NaN -> 0x7FFF */
static uint32_t float_to_half(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return 0x7FFFu;
  if (a >= 0x477FF000u) return sign | 0x7C00u;                 /* >= 65520 rounds to infinity */
  if (a >= 0x38800000u)                                        /* a normal half: |f| >= 2^-14 */
    return sign | ((a + 0x0FFFu + ((a >> 13) & 1u) - 0x38000000u) >> 13);
  /* |f| < 2^-14: subnormal half m * 2^-24 with m = |f| * 2^24 rounded to even (1024 is the smallest normal) */
  float af;
  memcpy(&af, &a, sizeof af);
  return sign | (uint32_t)nearbyint((double)af * 16777216.0);
}

static uint32_t axpby_one(float a, float b, uint32_t xh, uint32_t yh) {
  float yb = b * half_to_float(yh);
  float r = fmaf(a, half_to_float(xh), yb);
  return float_to_half(r);
}

void axpby_f16(long long n, float a, float b, const unsigned int* x, const unsigned int* y, unsigned int* out) {
  long long words = (n + 1) / 2;
  for (long long j = 0; j < words; ++j) {
    uint32_t lo = axpby_one(a, b, x[j] & 0xFFFFu, y[j] & 0xFFFFu);
    uint32_t hi = (2 * j + 1 < n) ? axpby_one(a, b, x[j] >> 16, y[j] >> 16) : 0u;
    out[j] = lo | (hi << 16);
  }
}
