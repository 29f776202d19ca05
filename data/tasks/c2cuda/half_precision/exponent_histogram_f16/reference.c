/* fp16 dynamic-range histogram: 43 classes (zero, floor(log2|v|) + 25 for finite nonzero, inf, NaN). */
#include <stdint.h>
#include <string.h>

static int bin_of(uint32_t p) {
  uint32_t e = (p >> 10) & 31u, m = p & 1023u;
  if (e == 31) return m ? 42 : 41;
  if (e > 0) return (int)e + 10;
  if (m == 0) return 0;
  int b = 0; /* subnormal: floor(log2 m) + 1 = the bit length of m */
  while (m) {
    ++b;
    m >>= 1;
  }
  return b;
}

void exponent_histogram_f16(long long n, const unsigned int* h, unsigned int* hist) {
  memset(hist, 0, 43 * sizeof *hist);
  for (long long i = 0; i < n; ++i) {
    uint32_t p = (h[i >> 1] >> ((i & 1) ? 16 : 0)) & 0xFFFFu;
    ++hist[bin_of(p)];
  }
}
