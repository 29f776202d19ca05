/* Jacobi iterations for M x = rhs, M = A + (n+1) I, x0 = 0, double working precision. */
void jacobi_dense_iters(int batch, int n, int iters, const float* A, const float* rhs, float* x) {
  double cur[32], nxt[32];
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (long long)b * n * n;
    const float* r = rhs + (long long)b * n;
    for (int i = 0; i < n; ++i) cur[i] = 0.0;
    for (int it = 0; it < iters; ++it) {
      for (int i = 0; i < n; ++i) {
        double s = (double)r[i];
        for (int j = 0; j < n; ++j)
          if (j != i) s -= (double)a[i * n + j] * cur[j];
        nxt[i] = s / ((double)a[i * n + i] + (double)(n + 1));
      }
      for (int i = 0; i < n; ++i) cur[i] = nxt[i];
    }
    for (int i = 0; i < n; ++i) x[(long long)b * n + i] = (float)cur[i];
  }
}
