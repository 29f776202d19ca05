/* Batched forward substitution L X = B, L = strict lower of T plus diagonal T_ii + n + 1 (double). */
void trsm_lower_multi_rhs(int batch, int n, int nrhs, const float* T, const float* B, float* X) {
  double x[64];
  for (int b = 0; b < batch; ++b) {
    const float* t = T + (long long)b * n * n;
    const float* rhs = B + (long long)b * n * nrhs;
    float* out = X + (long long)b * n * nrhs;
    for (int c = 0; c < nrhs; ++c) {
      for (int i = 0; i < n; ++i) {
        double s = (double)rhs[i * nrhs + c];
        for (int j = 0; j < i; ++j) s -= (double)t[i * n + j] * x[j];
        x[i] = s / ((double)t[i * n + i] + (double)(n + 1));
        out[i * nrhs + c] = (float)x[i];
      }
    }
  }
}
