// 1-D 3-point stencil with clamp-to-edge (replicated) boundaries.
void stencil1d_3pt(int n, float a, float b, float c, const float* in, float* out) {
  for (int i = 0; i < n; ++i) {
    float l = in[i > 0 ? i - 1 : 0];
    float x = in[i];
    float r = in[i + 1 < n ? i + 1 : n - 1];
    out[i] = a * l + b * x + c * r;
  }
}
