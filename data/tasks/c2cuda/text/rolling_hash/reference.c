/* Polynomial hash of every w-byte window, modulo 2^64 (Horner per window). */
void rolling_hash(long long n, int w, unsigned long long B, const unsigned char* text, unsigned long long* h) {
  for (long long i = 0; i + w <= n; ++i) {
    unsigned long long acc = 0;
    for (int j = 0; j < w; ++j) acc = acc * B + (unsigned long long)text[i + j] + 1ull;
    h[i] = acc;
  }
}
