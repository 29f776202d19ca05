/* float32 bit patterns -> bfloat16 (round to nearest, ties to even), two results packed per uint32. */
#include <stdint.h>

static uint32_t to_bf16(uint32_t u) {
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (u >> 16) | 0x0040u; /* NaN: keep sign/payload top, set quiet bit */
  uint32_t lsb = (u >> 16) & 1u;
  return (u + 0x7FFFu + lsb) >> 16; /* no wrap: the largest non-NaN pattern is 0xFF800000 */
}

void f32_to_bf16(long long n, const unsigned int* bits, unsigned int* out) {
  long long words = (n + 1) / 2;
  for (long long j = 0; j < words; ++j) {
    uint32_t lo = to_bf16(bits[2 * j]);
    uint32_t hi = (2 * j + 1 < n) ? to_bf16(bits[2 * j + 1]) : 0u;
    out[j] = lo | (hi << 16);
  }
}
