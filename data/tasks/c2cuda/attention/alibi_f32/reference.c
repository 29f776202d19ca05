/* ALiBi-biased bidirectional attention per head h: for query i and every key j,
   s_j = (Q[h,i,:] . K[h,j,:]) / sqrt(d) - slopes[h] * |i - j|, p_j = exp(s_j - max s),
   out[h,i,:] = sum_j p_j V[h,j,:] / sum_j p_j. Double precision throughout. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void alibi_attention_f32(int heads, int seq, int d, const float* Q, const float* K, const float* V,
                         const float* slopes, float* out) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  double* s = (double*)malloc((size_t)seq * sizeof(double));
  double* acc = (double*)malloc((size_t)d * sizeof(double));
  if (!s || !acc) {
    free(s);
    free(acc);
    return;
  }
  const double scale = 1.0 / sqrt((double)d);
  for (int h = 0; h < heads; ++h) {
    const size_t base = (size_t)h * (size_t)seq * (size_t)d;
    const double slope = (double)slopes[h];
    for (int i = 0; i < seq; ++i) {
      const float* q = Q + base + (size_t)i * (size_t)d;
      double mx = -INFINITY;
      for (int j = 0; j < seq; ++j) {
        const float* k = K + base + (size_t)j * (size_t)d;
        double dot = 0.0;
        for (int c = 0; c < d; ++c) dot += (double)q[c] * (double)k[c];
        const int dist = i > j ? i - j : j - i;
        s[j] = dot * scale - slope * (double)dist;
        if (s[j] > mx) mx = s[j];
      }
      double total = 0.0;
      for (int c = 0; c < d; ++c) acc[c] = 0.0;
      for (int j = 0; j < seq; ++j) {
        const double p = exp(s[j] - mx);
        total += p;
        const float* v = V + base + (size_t)j * (size_t)d;
        for (int c = 0; c < d; ++c) acc[c] += p * (double)v[c];
      }
      float* o = out + base + (size_t)i * (size_t)d;
      for (int c = 0; c < d; ++c) o[c] = (float)(acc[c] / total);
    }
  }
  free(s);
  free(acc);
}
