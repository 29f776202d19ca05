/* Hamming distance of 2-bit packed DNA string pairs. */
void dna_hamming_packed(int npairs, int L, const unsigned char* a, const unsigned char* b, int* dist) {
  const long long R = (L + 3) / 4;
  for (int i = 0; i < npairs; ++i) {
    const unsigned char* pa = a + (long long)i * R;
    const unsigned char* pb = b + (long long)i * R;
    int d = 0;
    for (int j = 0; j < L; ++j) {
      const int sh = 2 * (j & 3);
      const int ba = (pa[j >> 2] >> sh) & 3;
      const int bb = (pb[j >> 2] >> sh) & 3;
      d += (ba != bb);
    }
    dist[i] = d;
  }
}
