// 3x3 Gaussian blur with clamp-to-edge borders; accumulated in double (the weights are exact).
static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void gaussian3x3(int h, int w, const float* in, float* out) {
  static const double k[3] = {1.0, 2.0, 1.0};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double s = 0.0;
      for (int dy = -1; dy <= 1; ++dy) {
        const float* row = in + (long long)clampi(y + dy, 0, h - 1) * w;
        for (int dx = -1; dx <= 1; ++dx) s += k[dy + 1] * k[dx + 1] * (double)row[clampi(x + dx, 0, w - 1)];
      }
      out[(long long)y * w + x] = (float)(s * 0.0625);
    }
  }
}
