/* For each batch element b and query i: s_j = (Q[b,i,:] . K[b,j,:]) / sqrt(d),
   p_j = exp(s_j - max_j s_j), out[b,i,:] = sum_j p_j V[b,j,:] / sum_j p_j; everything in double. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void attention_f32(int batch, int seq, int d, const float* Q, const float* K, const float* V, float* out) {
  if (batch <= 0 || seq <= 0 || d <= 0) return;
  double* s = (double*)malloc((size_t)seq * sizeof(double));
  double* acc = (double*)malloc((size_t)d * sizeof(double));
  if (!s || !acc) {
    free(s);
    free(acc);
    return;
  }
  const double scale = 1.0 / sqrt((double)d);
  for (int b = 0; b < batch; ++b) {
    const size_t base = (size_t)b * (size_t)seq * (size_t)d;
    for (int i = 0; i < seq; ++i) {
      const float* q = Q + base + (size_t)i * (size_t)d;
      double mx = -INFINITY;
      for (int j = 0; j < seq; ++j) {
        const float* k = K + base + (size_t)j * (size_t)d;
        double dot = 0.0;
        for (int c = 0; c < d; ++c) dot += (double)q[c] * (double)k[c];
        s[j] = dot * scale;
        if (s[j] > mx) mx = s[j];
      }
      double sum = 0.0;
      for (int j = 0; j < seq; ++j) {
        s[j] = exp(s[j] - mx);
        sum += s[j];
      }
      for (int c = 0; c < d; ++c) acc[c] = 0.0;
      for (int j = 0; j < seq; ++j) {
        const float* v = V + base + (size_t)j * (size_t)d;
        for (int c = 0; c < d; ++c) acc[c] += s[j] * (double)v[c];
      }
      float* o = out + base + (size_t)i * (size_t)d;
      for (int c = 0; c < d; ++c) o[c] = (float)(acc[c] / sum);
    }
  }
  free(s);
  free(acc);
}
