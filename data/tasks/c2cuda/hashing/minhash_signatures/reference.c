/* MinHash signatures of CSR sets: per hash function the minimum seeded murmur3 finaliser over the set. */
#include <stdint.h>

static uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

void minhash_signatures(int nsets, int nnz, int nh, const int* rowptr, const uint32_t* elems, uint32_t* sig) {
  (void)nnz;
  for (int s = 0; s < nsets; ++s) {
    for (int i = 0; i < nh; ++i) {
      const uint32_t seed = 0x9E3779B9u * (uint32_t)(i + 1);
      uint32_t m = 0xFFFFFFFFu;
      for (int e = rowptr[s]; e < rowptr[s + 1]; ++e) {
        const uint32_t v = fmix32(elems[e] ^ seed);
        if (v < m) m = v;
      }
      sig[(long long)s * nh + i] = m;
    }
  }
}
