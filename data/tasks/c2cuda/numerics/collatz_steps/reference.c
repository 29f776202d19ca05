/* Collatz total stopping time of every start in [lo, lo + n). */
#include <stdint.h>

void collatz_steps(int n, long long lo, int* out) {
  for (int i = 0; i < n; ++i) {
    uint64_t x = (uint64_t)lo + (uint64_t)i;
    int steps = 0;
    while (x != 1) {
      if (x & 1u)
        x = 3u * x + 1u;
      else
        x >>= 1;
      ++steps;
    }
    out[i] = steps;
  }
}
