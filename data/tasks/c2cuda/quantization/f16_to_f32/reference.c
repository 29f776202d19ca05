/* IEEE half (binary16) bit patterns, two per uint32, widened exactly to float32 bit patterns. */
#include <stdint.h>
#include <string.h>

static uint32_t half_to_float_bits(uint32_t hb) {
  uint32_t sign = (hb >> 15) & 1u, e = (hb >> 10) & 31u, m = hb & 1023u;
  if (e == 0) {
    /* zero or subnormal: value m * 2^-24, exact in float (normal there unless m == 0) */
    float v = (float)m * 5.9604644775390625e-8f;
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return (sign << 31) | bits;
  }
  if (e == 31) {
    if (m == 0) return (sign << 31) | 0x7F800000u;         /* infinity */
    return (sign << 31) | 0x7FC00000u | (m << 13);          /* NaN: payload kept, quiet bit set */
  }
  return (sign << 31) | ((e + 112u) << 23) | (m << 13);     /* rebias 15 -> 127 */
}

void f16_to_f32(long long n, const unsigned int* h, unsigned int* out) {
  for (long long i = 0; i < n; ++i) {
    uint32_t w = h[i >> 1];
    uint32_t hb = (i & 1) ? (w >> 16) : (w & 0xFFFFu);
    out[i] = half_to_float_bits(hb);
  }
}
