/* Paged decode attention: sequence s, head h; token t < ctx[s] lives in pool block
   block_table[s*max_blocks + t/block_size], slot t % block_size, row ((blk*block_size + slot)*heads + h)*d.
   s_t = q . K_t / sqrt(d), out = sum_t exp(s_t - max) V_t / sum_t exp(s_t - max); zeros if ctx[s] == 0.
   Double precision throughout. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void paged_decode_attention_f32(int seqs, int heads, int d, int block_size, int max_blocks, int pool_blocks,
                                const float* q, const float* K_pool, const float* V_pool, const int* block_table,
                                const int* ctx, float* out) {
  (void)pool_blocks;
  if (seqs <= 0 || heads <= 0 || d <= 0 || block_size <= 0) return;
  const int cap = max_blocks * block_size;
  double* s = (double*)malloc((size_t)(cap > 0 ? cap : 1) * sizeof(double));
  double* acc = (double*)malloc((size_t)d * sizeof(double));
  if (!s || !acc) {
    free(s);
    free(acc);
    return;
  }
  const double scale = 1.0 / sqrt((double)d);
  for (int sq = 0; sq < seqs; ++sq) {
    int n = ctx[sq];
    if (n > cap) n = cap;
    for (int h = 0; h < heads; ++h) {
      const float* qh = q + ((size_t)sq * heads + h) * (size_t)d;
      float* o = out + ((size_t)sq * heads + h) * (size_t)d;
      if (n <= 0) {
        for (int c = 0; c < d; ++c) o[c] = 0.0f;
        continue;
      }
      double mx = -INFINITY;
      for (int t = 0; t < n; ++t) {
        const int blk = block_table[(size_t)sq * max_blocks + t / block_size];
        const float* k = K_pool + (((size_t)blk * block_size + t % block_size) * heads + h) * (size_t)d;
        double dot = 0.0;
        for (int c = 0; c < d; ++c) dot += (double)qh[c] * (double)k[c];
        s[t] = dot * scale;
        if (s[t] > mx) mx = s[t];
      }
      double total = 0.0;
      for (int c = 0; c < d; ++c) acc[c] = 0.0;
      for (int t = 0; t < n; ++t) {
        const int blk = block_table[(size_t)sq * max_blocks + t / block_size];
        const float* v = V_pool + (((size_t)blk * block_size + t % block_size) * heads + h) * (size_t)d;
        const double p = exp(s[t] - mx);
        total += p;
        for (int c = 0; c < d; ++c) acc[c] += p * (double)v[c];
      }
      for (int c = 0; c < d; ++c) o[c] = (float)(acc[c] / total);
    }
  }
  free(s);
  free(acc);
}
