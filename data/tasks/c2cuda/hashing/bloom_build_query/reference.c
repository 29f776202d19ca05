/* Bloom filter: insert keys with k double-hashed probes, then test queries. */
#include <stdint.h>
#include <stdlib.h>

static uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static uint32_t probe(uint32_t h1, uint32_t h2, int i, uint32_t m) {
  const uint32_t x = h1 + (uint32_t)i * h2;
  return (uint32_t)(((uint64_t)x * m) >> 32);
}

void bloom_build_query(int nkeys, int nq, int nwords, int k, const uint32_t* keys, const uint32_t* queries,
                       uint8_t* hit) {
  const uint32_t m = 32u * (uint32_t)nwords;
  uint32_t* f = (uint32_t*)calloc((size_t)nwords > 0 ? (size_t)nwords : 1, sizeof(uint32_t));
  for (int j = 0; j < nkeys; ++j) {
    const uint32_t h1 = fmix32(keys[j]), h2 = fmix32(keys[j] ^ 0x5bd1e995u) | 1u;
    for (int i = 0; i < k; ++i) {
      const uint32_t b = probe(h1, h2, i, m);
      f[b >> 5] |= 1u << (b & 31u);
    }
  }
  for (int q = 0; q < nq; ++q) {
    const uint32_t h1 = fmix32(queries[q]), h2 = fmix32(queries[q] ^ 0x5bd1e995u) | 1u;
    uint8_t all = 1;
    for (int i = 0; i < k && all; ++i) {
      const uint32_t b = probe(h1, h2, i, m);
      all = (f[b >> 5] >> (b & 31u)) & 1u;
    }
    hit[q] = all;
  }
  free(f);
}
