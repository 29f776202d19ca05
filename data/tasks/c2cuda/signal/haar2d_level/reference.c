/* One level of the orthonormal 2-D Haar transform; subbands LL | HL over LH | HH.
   Each output is formed in double and rounded once to float. */
void haar2d_level(int h2, int w2, const float* in, float* out) {
  const long long w = 2LL * w2;
  for (int i = 0; i < h2; ++i) {
    for (int j = 0; j < w2; ++j) {
      const double a = in[(2LL * i) * w + 2 * j], b = in[(2LL * i) * w + 2 * j + 1];
      const double c = in[(2LL * i + 1) * w + 2 * j], d = in[(2LL * i + 1) * w + 2 * j + 1];
      out[(long long)i * w + j] = (float)(0.5 * ((a + b) + (c + d)));
      out[(long long)i * w + w2 + j] = (float)(0.5 * ((a - b) + (c - d)));
      out[(long long)(h2 + i) * w + j] = (float)(0.5 * ((a + b) - (c + d)));
      out[(long long)(h2 + i) * w + w2 + j] = (float)(0.5 * ((a - b) - (c - d)));
    }
  }
}
