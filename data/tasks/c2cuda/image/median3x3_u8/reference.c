// 3x3 median filter on an 8-bit image with clamp-to-edge borders (insertion sort of the 9 values).
static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void median3x3_u8(int h, int w, const unsigned char* in, unsigned char* out) {
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      unsigned char v[9];
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          v[n++] = in[(long long)clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
      for (int i = 1; i < 9; ++i) {
        unsigned char key = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > key) {
          v[j + 1] = v[j];
          --j;
        }
        v[j + 1] = key;
      }
      out[(long long)y * w + x] = v[4];
    }
  }
}
