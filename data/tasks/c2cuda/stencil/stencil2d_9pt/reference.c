// General 3x3 stencil, out[i][j] = sum_{di,dj} wts[(di+1)*3 + (dj+1)] * in[clamp(i+di)][clamp(j+dj)].
// Accumulated in double so the reference is the more accurate answer.
static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void stencil2d_9pt(int n, int m, const float* wts, const float* in, float* out) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      double s = 0.0;
      for (int di = -1; di <= 1; ++di) {
        int ii = clampi(i + di, 0, n - 1);
        for (int dj = -1; dj <= 1; ++dj) {
          int jj = clampi(j + dj, 0, m - 1);
          s += (double)wts[(di + 1) * 3 + (dj + 1)] * (double)in[(long long)ii * m + jj];
        }
      }
      out[(long long)i * m + j] = (float)s;
    }
  }
}
