/* Stable sort of (key, value) pairs by signed key ascending (LSD radix, 8-bit digits,
   sign bit flipped so that negative keys come first). */
#include <stdlib.h>
#include <string.h>

void sort_pairs_i32(int n, const int* keys_in, const int* vals_in, int* keys_out, int* vals_out) {
  if (n <= 0) return;
  unsigned int* k0 = (unsigned int*)malloc(sizeof(unsigned int) * (size_t)n);
  unsigned int* k1 = (unsigned int*)malloc(sizeof(unsigned int) * (size_t)n);
  int* v0 = (int*)malloc(sizeof(int) * (size_t)n);
  int* v1 = (int*)malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    k0[i] = (unsigned int)keys_in[i] ^ 0x80000000u;
    v0[i] = vals_in[i];
  }
  for (int sh = 0; sh < 32; sh += 8) {
    size_t count[257];
    memset(count, 0, sizeof(count));
    for (int i = 0; i < n; ++i) count[((k0[i] >> sh) & 255u) + 1]++;
    for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
    for (int i = 0; i < n; ++i) {
      size_t p = count[(k0[i] >> sh) & 255u]++;
      k1[p] = k0[i];
      v1[p] = v0[i];
    }
    unsigned int* tk = k0; k0 = k1; k1 = tk;
    int* tv = v0; v0 = v1; v1 = tv;
  }
  for (int i = 0; i < n; ++i) {
    keys_out[i] = (int)(k0[i] ^ 0x80000000u);
    vals_out[i] = v0[i];
  }
  free(k0); free(k1); free(v0); free(v1);
}
