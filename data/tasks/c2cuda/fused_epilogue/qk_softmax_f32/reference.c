/* Row softmax of scale * Q * K^T (one attention head, no V). Scores, max and sum in double. */
#include <math.h>
#include <stdlib.h>

void qk_softmax_f32(int n, int m, int d, float scale, const float* q, const float* k, float* p) {
  if (m <= 0) return;
  double* s = (double*)malloc(sizeof(double) * (size_t)m);
  if (!s) return;
  for (int i = 0; i < n; ++i) {
    const float* qi = q + (long long)i * d;
    double mx = -INFINITY;
    for (int j = 0; j < m; ++j) {
      const float* kj = k + (long long)j * d;
      double dot = 0.0;
      for (int t = 0; t < d; ++t) dot += (double)qi[t] * (double)kj[t];
      s[j] = (double)scale * dot;
      if (s[j] > mx) mx = s[j];
    }
    double sum = 0.0;
    for (int j = 0; j < m; ++j) {
      s[j] = exp(s[j] - mx);
      sum += s[j];
    }
    for (int j = 0; j < m; ++j) p[(long long)i * m + j] = (float)(s[j] / sum);
  }
  free(s);
}
