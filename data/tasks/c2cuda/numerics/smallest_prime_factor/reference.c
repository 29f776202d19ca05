/* Smallest prime factor by trial division over 2 and the odd numbers up to sqrt(x). */
#include <stdint.h>

void smallest_prime_factor(int n, const uint32_t* x, uint32_t* out) {
  for (int i = 0; i < n; ++i) {
    const uint32_t v = x[i];
    uint32_t f = v;
    if (v >= 2) {
      if ((v & 1u) == 0) {
        f = 2;
      } else {
        for (uint32_t d = 3; (uint64_t)d * d <= v; d += 2) {
          if (v % d == 0) {
            f = d;
            break;
          }
        }
      }
    }
    out[i] = f;
  }
}
