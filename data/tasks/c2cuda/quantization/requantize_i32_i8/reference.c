/* Per-channel fixed-point requantisation int32 -> int8 (multiplier in Q31, extra right shift). */
void requantize_i32_i8(int rows, int cols, int out_zp, const int* acc, const int* bias, const int* mult,
                       const int* shift, signed char* out) {
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      long long i = (long long)r * cols + c;
      long long p = (long long)(acc[i] + bias[c]) * (long long)mult[c];
      int t = 31 + shift[c];
      long long v = ((p + (1LL << (t - 1))) >> t) + out_zp; /* gcc: >> of a negative value is arithmetic */
      if (v > 127) v = 127;
      if (v < -128) v = -128;
      out[i] = (signed char)v;
    }
  }
}
