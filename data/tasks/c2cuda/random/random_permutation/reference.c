/* Random permutation: stable sort of indices by a 32-bit hash key (LSD radix sort, 4 passes of 8 bits). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t perm_key(uint32_t i, uint32_t s0, uint32_t s1) {
  uint32_t h = (i * 0x9E3779B1u + s0) ^ s1;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

void random_permutation(int n, unsigned long long seed, int* perm) {
  if (n <= 0) return;
  const uint32_t s0 = (uint32_t)seed, s1 = (uint32_t)(seed >> 32);
  int* tmp = (int*)malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  int* src = perm;
  int* dst = tmp;
  for (int pass = 0; pass < 4; ++pass) {
    size_t count[257];
    memset(count, 0, sizeof count);
    const int sh = 8 * pass;
    for (int i = 0; i < n; ++i) count[((perm_key((uint32_t)src[i], s0, s1) >> sh) & 255u) + 1]++;
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (int i = 0; i < n; ++i) dst[count[(perm_key((uint32_t)src[i], s0, s1) >> sh) & 255u]++] = src[i];
    int* t = src;
    src = dst;
    dst = t;
  }
  /* 4 passes: the result is back in perm */
  free(tmp);
}
