// One Jacobi sweep of the 5-point stencil on an n x m row-major grid; border cells are copied.
void jacobi2d_5pt(int n, int m, float w, const float* in, float* out) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      long long k = (long long)i * m + j;
      if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
        out[k] = in[k];
      } else {
        float s = ((in[k - m] + in[k + m]) + in[k - 1]) + in[k + 1];
        out[k] = w * s;
      }
    }
  }
}
