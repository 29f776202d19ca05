/* Cross-attention with key padding: for batch b, head h, query i and keys j < kv_len[b]
   (clamped to lk): s_j = (Q[b,h,i,:] . K[b,h,j,:]) / sqrt(d), p_j = exp(s_j - max s),
   out[b,h,i,:] = sum_j p_j V[b,h,j,:] / sum_j p_j; zeros when kv_len[b] <= 0. Double precision. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void cross_attention_varlen_f32(int batch, int heads, int lq, int lk, int d, const float* Q, const float* K,
                                const float* V, const int* kv_len, float* out) {
  if (batch <= 0 || heads <= 0 || lq <= 0 || lk <= 0 || d <= 0) return;
  double* s = (double*)malloc((size_t)lk * sizeof(double));
  double* acc = (double*)malloc((size_t)d * sizeof(double));
  if (!s || !acc) {
    free(s);
    free(acc);
    return;
  }
  const double scale = 1.0 / sqrt((double)d);
  for (int b = 0; b < batch; ++b) {
    int n = kv_len[b];
    if (n > lk) n = lk;
    for (int h = 0; h < heads; ++h) {
      const size_t bh = (size_t)b * heads + h;
      const size_t qbase = bh * (size_t)lq * (size_t)d;
      const size_t kbase = bh * (size_t)lk * (size_t)d;
      for (int i = 0; i < lq; ++i) {
        const float* q = Q + qbase + (size_t)i * (size_t)d;
        float* o = out + qbase + (size_t)i * (size_t)d;
        if (n <= 0) {
          for (int c = 0; c < d; ++c) o[c] = 0.0f;
          continue;
        }
        double mx = -INFINITY;
        for (int j = 0; j < n; ++j) {
          const float* k = K + kbase + (size_t)j * (size_t)d;
          double dot = 0.0;
          for (int c = 0; c < d; ++c) dot += (double)q[c] * (double)k[c];
          s[j] = dot * scale;
          if (s[j] > mx) mx = s[j];
        }
        double total = 0.0;
        for (int c = 0; c < d; ++c) acc[c] = 0.0;
        for (int j = 0; j < n; ++j) {
          const double p = exp(s[j] - mx);
          total += p;
          const float* v = V + kbase + (size_t)j * (size_t)d;
          for (int c = 0; c < d; ++c) acc[c] += p * (double)v[c];
        }
        for (int c = 0; c < d; ++c) o[c] = (float)(acc[c] / total);
      }
    }
  }
  free(s);
  free(acc);
}
