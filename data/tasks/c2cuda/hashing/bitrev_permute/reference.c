/* Batched bit-reversal permutation of rows of 2^logn uint32 elements. */
#include <stdint.h>

void bitrev_permute(int batch, int logn, const uint32_t* in, uint32_t* out) {
  const long long n = 1LL << logn;
  for (int r = 0; r < batch; ++r) {
    const uint32_t* src = in + r * n;
    uint32_t* dst = out + r * n;
    for (long long i = 0; i < n; ++i) {
      long long j = 0;
      for (int b = 0; b < logn; ++b) j |= ((i >> b) & 1) << (logn - 1 - b);
      dst[j] = src[i];
    }
  }
}
