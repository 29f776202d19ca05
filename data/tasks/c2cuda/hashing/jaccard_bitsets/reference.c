/* All-pairs Jaccard similarity of fixed-width bit sets (popcount of AND over popcount of OR). */
#include <stdint.h>

static int popcount32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return (int)((x * 0x01010101u) >> 24);
}

void jaccard_bitsets(int nq, int nd, int W, const uint32_t* qbits, const uint32_t* dbits, float* out) {
  for (int i = 0; i < nq; ++i) {
    const uint32_t* q = qbits + (long long)i * W;
    for (int j = 0; j < nd; ++j) {
      const uint32_t* d = dbits + (long long)j * W;
      int a = 0, u = 0;
      for (int w = 0; w < W; ++w) {
        a += popcount32(q[w] & d[w]);
        u += popcount32(q[w] | d[w]);
      }
      out[(long long)i * nd + j] = u == 0 ? 0.0f : (float)a / (float)u;
    }
  }
}
