/* Batched 4x4 inverse of M = A + 5 I by Gauss-Jordan elimination on [M | I] in double (no pivoting needed). */
void inverse4x4(int batch, const float* A, float* Minv) {
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (long long)b * 16;
    double w[4][8];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        w[i][j] = (double)a[i * 4 + j] + (i == j ? 5.0 : 0.0);
        w[i][j + 4] = (i == j) ? 1.0 : 0.0;
      }
    for (int k = 0; k < 4; ++k) {
      const double p = w[k][k];
      for (int j = 0; j < 8; ++j) w[k][j] /= p;
      for (int i = 0; i < 4; ++i) {
        if (i == k) continue;
        const double f = w[i][k];
        for (int j = 0; j < 8; ++j) w[i][j] -= f * w[k][j];
      }
    }
    float* o = Minv + (long long)b * 16;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) o[i * 4 + j] = (float)w[i][j + 4];
  }
}
