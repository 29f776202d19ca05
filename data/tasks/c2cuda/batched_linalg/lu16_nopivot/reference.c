/* Batched LU without pivoting of 16x16 diagonally dominant matrices M = A + 16*I (double working copy). */
void lu16_nopivot(int batch, const float* A, float* LU) {
  double w[256];
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (long long)b * 256;
    float* o = LU + (long long)b * 256;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) w[i * 16 + j] = (double)a[i * 16 + j] + (i == j ? 16.0 : 0.0);
    for (int k = 0; k < 16; ++k) {
      const double p = w[k * 16 + k];
      for (int i = k + 1; i < 16; ++i) {
        const double l = w[i * 16 + k] / p;
        w[i * 16 + k] = l;
        for (int j = k + 1; j < 16; ++j) w[i * 16 + j] -= l * w[k * 16 + j];
      }
    }
    for (int e = 0; e < 256; ++e) o[e] = (float)w[e];
  }
}
