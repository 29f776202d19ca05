// 1-D radius-8 stencil in double; values outside [0, n) are treated as zero.
#define R 8

void stencil1d_r8_double(int n, const double* w, const double* in, double* out) {
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int k = 0; k <= 2 * R; ++k) {
      int j = i + k - R;
      if (j >= 0 && j < n) s += w[k] * in[j];
    }
    out[i] = s;
  }
}
