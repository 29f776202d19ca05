/* Batched Cholesky (Cholesky-Banachiewicz, double) of M = (A + A^T)/2 + (n+1) I; L lower, upper zeroed. */
#include <math.h>

void cholesky_spd(int batch, int n, const float* A, float* L) {
  double w[32 * 32];
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (long long)b * n * n;
    float* o = L + (long long)b * n * n;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        double s = 0.5 * ((double)a[i * n + j] + (double)a[j * n + i]);
        if (i == j) s += (double)(n + 1);
        for (int p = 0; p < j; ++p) s -= w[i * 32 + p] * w[j * 32 + p];
        w[i * 32 + j] = (i == j) ? sqrt(s) : s / w[j * 32 + j];
      }
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) o[i * n + j] = (j <= i) ? (float)w[i * 32 + j] : 0.0f;
  }
}
