/* int4 (group-quantised, two per byte) weight GEMV with float activations, double accumulation. */
static int nibble_s4(unsigned int v) { return (int)(v & 15u) - ((v & 8u) ? 16 : 0); }

void int4_gemv_f32(int rows, int groups, const unsigned char* w, const float* scales, const float* x, float* y) {
  for (int r = 0; r < rows; ++r) {
    const unsigned char* wr = w + (long long)r * groups * 16;
    double acc = 0.0;
    for (int g = 0; g < groups; ++g) {
      double part = 0.0;
      for (int j = 0; j < 16; ++j) {
        unsigned int byte = wr[g * 16 + j];
        part += (double)nibble_s4(byte) * (double)x[g * 32 + 2 * j];
        part += (double)nibble_s4(byte >> 4) * (double)x[g * 32 + 2 * j + 1];
      }
      acc += (double)scales[(long long)r * groups + g] * part;
    }
    y[r] = (float)acc;
  }
}
