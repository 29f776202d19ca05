/* Monte Carlo estimate of a 2-D Gaussian integral over [0,1)^2 per batch item, counter-based points. */
#include <math.h>
#include <stdint.h>

static uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void mc_gauss_integral(int batch, int samples, unsigned long long seed, const float* a, float* out) {
  for (int b = 0; b < batch; ++b) {
    const double ab = (double)a[b];
    const uint64_t base = (uint64_t)b * (uint64_t)samples;
    double s = 0.0;
    for (int k = 0; k < samples; ++k) {
      uint64_t z = splitmix64((uint64_t)seed + (base + (uint64_t)k + 1u) * 0x9E3779B97F4A7C15ull);
      double x = (double)(z >> 40) * (1.0 / 16777216.0);
      double y = (double)((z >> 16) & 0xFFFFFFu) * (1.0 / 16777216.0);
      s += exp(-ab * (x * x + y * y));
    }
    out[b] = samples > 0 ? (float)(s / (double)samples) : 0.0f;
  }
}
