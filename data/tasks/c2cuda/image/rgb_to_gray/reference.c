// Interleaved RGB (uint8) to float luma, ITU-R BT.601 weights.
void rgb_to_gray(int h, int w, const unsigned char* rgb, float* gray) {
  long long npix = (long long)h * w;
  for (long long p = 0; p < npix; ++p) {
    float r = (float)rgb[3 * p], g = (float)rgb[3 * p + 1], b = (float)rgb[3 * p + 2];
    gray[p] = 0.299f * r + 0.587f * g + 0.114f * b;
  }
}
