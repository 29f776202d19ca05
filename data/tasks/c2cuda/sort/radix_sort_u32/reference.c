/* out = keys sorted ascending (LSD radix sort, 8-bit digits, on a heap buffer). */
#include <stdlib.h>
#include <string.h>

void sort_u32(int n, const unsigned int* keys, unsigned int* out) {
  if (n <= 0) return;
  unsigned int* tmp = (unsigned int*)malloc(sizeof(unsigned int) * (size_t)n);
  memcpy(out, keys, sizeof(unsigned int) * (size_t)n);
  unsigned int* src = out;
  unsigned int* dst = tmp;
  for (int sh = 0; sh < 32; sh += 8) {
    size_t count[257];
    memset(count, 0, sizeof(count));
    for (int i = 0; i < n; ++i) count[((src[i] >> sh) & 255u) + 1]++;
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (int i = 0; i < n; ++i) dst[count[(src[i] >> sh) & 255u]++] = src[i];
    unsigned int* t = src;
    src = dst;
    dst = t;
  }
  /* four passes: the result is back in out */
  free(tmp);
}
