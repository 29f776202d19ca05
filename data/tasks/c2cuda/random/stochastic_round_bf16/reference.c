/* Stochastic rounding float -> bfloat16 with a stateless 64-bit hash; bf16 patterns packed two per uint32. */
#include <stdint.h>
#include <string.h>

static uint32_t hash_bits(uint64_t seed, uint64_t i) {
  uint64_t z = i * 0xD6E8FEB86659FD93ull ^ seed;
  z ^= z >> 32;
  z *= 0xD6E8FEB86659FD93ull;
  z ^= z >> 32;
  z *= 0xD6E8FEB86659FD93ull;
  z ^= z >> 32;
  return (uint32_t)z;
}

static uint32_t sr_bf16(float x, uint64_t seed, uint64_t i) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  if ((b & 0x7F800000u) == 0x7F800000u) {
    uint32_t t = b >> 16;
    if (b & 0x007FFFFFu) t |= 0x0040u;
    return t;
  }
  return (b + (hash_bits(seed, i) & 0xFFFFu)) >> 16;
}

void stochastic_round_bf16(int n, unsigned long long seed, const float* in, uint32_t* out) {
  for (int j = 0; 2 * j < n; ++j) {
    uint32_t lo = sr_bf16(in[2 * j], (uint64_t)seed, (uint64_t)(2 * j));
    uint32_t hi = 2 * j + 1 < n ? sr_bf16(in[2 * j + 1], (uint64_t)seed, (uint64_t)(2 * j + 1)) : 0u;
    out[j] = lo | (hi << 16);
  }
}
