/* k-mer counting over 2-bit base codes (one base per byte, low two bits). */
#include <string.h>

void kmer_count(long long n, int k, const unsigned char* seq, unsigned int* counts) {
  const unsigned long long bins = 1ull << (2 * k);
  const unsigned int mask = (unsigned int)(bins - 1);
  memset(counts, 0, bins * sizeof(unsigned int));
  unsigned int code = 0;
  for (long long i = 0; i < n; ++i) {
    code = ((code << 2) | (seq[i] & 3u)) & mask;
    if (i >= k - 1) counts[code] += 1u;
  }
}
