/* Box-Muller standard normals from a SplitMix64 counter stream (double math, rounded to float). */
#include <math.h>
#include <stdint.h>

static uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void box_muller_f32(int n, unsigned long long seed, float* out) {
  const double two_pi = 6.283185307179586476925286766559;
  for (long long j = 0; 2 * j < n; ++j) {
    uint64_t z = splitmix64((uint64_t)seed + (uint64_t)(j + 1) * 0x9E3779B97F4A7C15ull);
    double u1 = (double)((z >> 40) + 1) * (1.0 / 16777216.0);
    double u2 = (double)((z >> 16) & 0xFFFFFFu) * (1.0 / 16777216.0);
    double r = sqrt(-2.0 * log(u1));
    double t = two_pi * u2;
    out[2 * j] = (float)(r * cos(t));
    if (2 * j + 1 < n) out[2 * j + 1] = (float)(r * sin(t));
  }
}
