/* HyperLogLog registers: max leading-zero rank per register of a 64-bit murmur3-finalised hash. */
#include <stdint.h>

static uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

void hll_registers(int n, int p, const uint32_t* keys, int* regs) {
  const long long m = 1LL << p;
  for (long long j = 0; j < m; ++j) regs[j] = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t h = fmix64((uint64_t)keys[i] + 0x9E3779B97F4A7C15ull);
    const long long j = (long long)(h >> (64 - p));
    const uint64_t w = h << p;
    int rank = 1;
    if (w == 0) {
      rank = 65 - p;
    } else {
      uint64_t t = w;
      while (!(t & 0x8000000000000000ull)) {
        t <<= 1;
        ++rank;
      }
    }
    if (rank > regs[j]) regs[j] = rank;
  }
}
