/* Causal grouped-query attention: query head h uses kv head g = h / (q_heads / kv_heads).
   For query i: s_j = (Q[h,i,:] . K[g,j,:]) / sqrt(d) for j <= i, p_j = exp(s_j - max s),
   out[h,i,:] = sum_j p_j V[g,j,:] / sum_j p_j. Double precision throughout. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void gqa_causal_attention_f32(int q_heads, int kv_heads, int seq, int d, const float* Q, const float* K,
                              const float* V, float* out) {
  if (q_heads <= 0 || kv_heads <= 0 || seq <= 0 || d <= 0) return;
  const int group = q_heads / kv_heads > 0 ? q_heads / kv_heads : 1;
  double* s = (double*)malloc((size_t)seq * sizeof(double));
  double* acc = (double*)malloc((size_t)d * sizeof(double));
  if (!s || !acc) {
    free(s);
    free(acc);
    return;
  }
  const double scale = 1.0 / sqrt((double)d);
  for (int h = 0; h < q_heads; ++h) {
    const int g = h / group;
    const size_t qbase = (size_t)h * (size_t)seq * (size_t)d;
    const size_t kbase = (size_t)g * (size_t)seq * (size_t)d;
    for (int i = 0; i < seq; ++i) {
      const float* q = Q + qbase + (size_t)i * (size_t)d;
      double mx = -INFINITY;
      for (int j = 0; j <= i; ++j) {
        const float* k = K + kbase + (size_t)j * (size_t)d;
        double dot = 0.0;
        for (int c = 0; c < d; ++c) dot += (double)q[c] * (double)k[c];
        s[j] = dot * scale;
        if (s[j] > mx) mx = s[j];
      }
      double total = 0.0;
      for (int c = 0; c < d; ++c) acc[c] = 0.0;
      for (int j = 0; j <= i; ++j) {
        const double p = exp(s[j] - mx);
        total += p;
        const float* v = V + kbase + (size_t)j * (size_t)d;
        for (int c = 0; c < d; ++c) acc[c] += p * (double)v[c];
      }
      float* o = out + qbase + (size_t)i * (size_t)d;
      for (int c = 0; c < d; ++c) o[c] = (float)(acc[c] / total);
    }
  }
  free(s);
  free(acc);
}
