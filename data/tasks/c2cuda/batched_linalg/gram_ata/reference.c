/* Batched Gram matrix G = A^T A of m x k row-major blocks, double accumulation. */
void gram_ata(int batch, int m, int k, const float* A, float* G) {
  double acc[32 * 32];
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (long long)b * m * k;
    for (int e = 0; e < k * k; ++e) acc[e] = 0.0;
    for (int r = 0; r < m; ++r) {
      const float* row = a + (long long)r * k;
      for (int i = 0; i < k; ++i) {
        const double ri = (double)row[i];
        for (int j = 0; j < k; ++j) acc[i * k + j] += ri * (double)row[j];
      }
    }
    float* g = G + (long long)b * k * k;
    for (int e = 0; e < k * k; ++e) g[e] = (float)acc[e];
  }
}
