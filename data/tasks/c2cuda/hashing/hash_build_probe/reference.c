/* Build a linear-probing hash map key -> last index, then probe it: out[q] = vals[last index of key] or -1. */
#include <stdint.h>
#include <stdlib.h>

static uint32_t mix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

void hash_build_probe(int nk, int nq, const int* keys, const int* vals, const int* queries, int* out) {
  size_t cap = 16;
  while (cap < 2 * (size_t)nk) cap <<= 1;
  const size_t mask = cap - 1;
  int* tkey = (int*)malloc(cap * sizeof(int));
  int* tidx = (int*)malloc(cap * sizeof(int));
  for (size_t s = 0; s < cap; ++s) tkey[s] = -1;
  for (int i = 0; i < nk; ++i) {
    size_t s = mix((uint32_t)keys[i]) & mask;
    while (tkey[s] != -1 && tkey[s] != keys[i]) s = (s + 1) & mask;
    tkey[s] = keys[i];
    tidx[s] = i;  /* later duplicates overwrite */
  }
  for (int q = 0; q < nq; ++q) {
    size_t s = mix((uint32_t)queries[q]) & mask;
    int r = -1;
    while (tkey[s] != -1) {
      if (tkey[s] == queries[q]) {
        r = vals[tidx[s]];
        break;
      }
      s = (s + 1) & mask;
    }
    out[q] = r;
  }
  free(tkey);
  free(tidx);
}
