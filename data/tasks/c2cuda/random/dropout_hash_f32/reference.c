/* Inverted dropout driven by a stateless murmur3-finaliser hash of (seed, index). */
#include <stdint.h>

static uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

void dropout_hash_f32(int n, float p, unsigned long long seed, const float* in, float* out, uint8_t* mask) {
  const uint32_t thr = (uint32_t)((double)p * 4294967296.0);
  const float scale = 1.0f / (1.0f - p);
  const uint32_t s0 = (uint32_t)seed, s1 = (uint32_t)(seed >> 32);
  for (int i = 0; i < n; ++i) {
    uint32_t h = fmix32(fmix32((uint32_t)i * 0x9E3779B1u ^ s0) ^ s1);
    int keep = h >= thr;
    out[i] = keep ? in[i] * scale : 0.0f;
    mask[i] = (uint8_t)keep;
  }
}
