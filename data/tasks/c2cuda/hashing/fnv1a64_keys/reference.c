/* FNV-1a 64-bit hash of fixed-length byte keys. */
#include <stdint.h>

void fnv1a64_keys(int n, int klen, const uint8_t* keys, unsigned long long* out) {
  for (int i = 0; i < n; ++i) {
    const uint8_t* k = keys + (long long)i * klen;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int j = 0; j < klen; ++j) {
      h ^= (uint64_t)k[j];
      h *= 0x100000001b3ull;
    }
    out[i] = h;
  }
}
