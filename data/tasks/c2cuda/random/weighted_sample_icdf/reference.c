/* Weighted sampling by inverse CDF over an exact 64-bit prefix sum of integer weights. */
#include <stdint.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void weighted_sample_icdf(int n, int m, unsigned long long seed, const uint32_t* w, int* idx) {
  uint64_t* cdf = (uint64_t*)malloc(sizeof(uint64_t) * (size_t)(n > 0 ? n : 1));
  uint64_t run = 0;
  for (int i = 0; i < n; ++i) {
    run += w[i];
    cdf[i] = run;
  }
  const uint64_t total = run;
  for (int j = 0; j < m; ++j) {
    if (total == 0) {
      idx[j] = -1;
      continue;
    }
    uint64_t t = splitmix64((uint64_t)seed + (uint64_t)(j + 1) * 0x9E3779B97F4A7C15ull) % total;
    int lo = 0, hi = n - 1; /* first i with cdf[i] > t; cdf[n-1] = total > t */
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (cdf[mid] > t) hi = mid;
      else lo = mid + 1;
    }
    idx[j] = lo;
  }
  free(cdf);
}
