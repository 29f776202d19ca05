#include <string.h>

/* 256-bin byte histogram: hist[b] = number of i in [0, n) with data[i] == b. */
void hist256_u8(long long n, const unsigned char* data, unsigned int* hist) {
  memset(hist, 0, 256 * sizeof(unsigned int));
  for (long long i = 0; i < n; ++i) hist[data[i]]++;
}
