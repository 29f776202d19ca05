/* 7x7 correlation with zero padding, accumulated in double, one rounding per output. */
void conv2d_7x7_zero(int n, int m, const float* k, const float* in, float* out) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      double s = 0.0;
      for (int u = 0; u < 7; ++u) {
        const int ii = i + u - 3;
        if (ii < 0 || ii >= n) continue;
        for (int v = 0; v < 7; ++v) {
          const int jj = j + v - 3;
          if (jj < 0 || jj >= m) continue;
          s += (double)k[u * 7 + v] * (double)in[(long long)ii * m + jj];
        }
      }
      out[(long long)i * m + j] = (float)s;
    }
  }
}
