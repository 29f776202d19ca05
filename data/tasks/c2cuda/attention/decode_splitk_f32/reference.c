/* Decode-step attention per head h: s_j = (q[h,:] . K[h,j,:]) / sqrt(d) for j < L,
   p_j = exp(s_j - max s), out[h,:] = sum_j p_j V[h,j,:] / sum_j p_j. Double precision throughout. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void decode_attention_f32(int heads, int L, int d, const float* q, const float* K, const float* V, float* out) {
  if (heads <= 0 || L <= 0 || d <= 0) return;
  double* s = (double*)malloc((size_t)L * sizeof(double));
  double* acc = (double*)malloc((size_t)d * sizeof(double));
  if (!s || !acc) {
    free(s);
    free(acc);
    return;
  }
  const double scale = 1.0 / sqrt((double)d);
  for (int h = 0; h < heads; ++h) {
    const float* qh = q + (size_t)h * (size_t)d;
    const size_t base = (size_t)h * (size_t)L * (size_t)d;
    double mx = -INFINITY;
    for (int j = 0; j < L; ++j) {
      const float* k = K + base + (size_t)j * (size_t)d;
      double dot = 0.0;
      for (int c = 0; c < d; ++c) dot += (double)qh[c] * (double)k[c];
      s[j] = dot * scale;
      if (s[j] > mx) mx = s[j];
    }
    double total = 0.0;
    for (int c = 0; c < d; ++c) acc[c] = 0.0;
    for (int j = 0; j < L; ++j) {
      const double p = exp(s[j] - mx);
      total += p;
      const float* v = V + base + (size_t)j * (size_t)d;
      for (int c = 0; c < d; ++c) acc[c] += p * (double)v[c];
    }
    for (int c = 0; c < d; ++c) out[(size_t)h * (size_t)d + c] = (float)(acc[c] / total);
  }
  free(s);
  free(acc);
}
