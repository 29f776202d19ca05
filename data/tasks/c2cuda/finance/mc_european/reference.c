/* Monte Carlo European call prices with a counter-based generator.
 * For option i (0-based) and path p (0-based):
 *   h  = splitmix64_mix( (i << 32) + p + seed * 0xD1B54A32D192ED03 )     (uint64 arithmetic, wraps)
 *   u1 = ((h >> 40) + 1) * 2^-24                 in (0, 1]   (top 24 bits)
 *   u2 = ((h >> 16) & 0xFFFFFF) * 2^-24          in [0, 1)   (next 24 bits)
 *   z  = sqrt(-2 ln u1) * cos(2 pi u2)
 *   ST = S exp((r - sigma^2/2) T + sigma sqrt(T) z),  payoff = max(ST - K, 0)
 *   price[i] = exp(-r T) * (sum_p payoff) / n_paths
 * splitmix64_mix(z): z += 0x9E3779B97F4A7C15; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *                    z = (z ^ (z >> 27)) * 0x94D049BB133111EB; return z ^ (z >> 31).
 * Evaluated in double (the uniforms are exact in float and double alike). */
#include <math.h>
#include <stdint.h>

static uint64_t splitmix64_mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void mc_european(int n_opt, int n_paths, float r, unsigned int seed, const float* S,
                 const float* K, const float* T, const float* sigma, float* price) {
  const double two_pi = 6.283185307179586476925;
  const double inv24 = 1.0 / 16777216.0;
  const uint64_t salt = (uint64_t)seed * 0xD1B54A32D192ED03ULL;
  for (int i = 0; i < n_opt; ++i) {
    const double s = S[i], k = K[i], t = T[i], v = sigma[i], rr = r;
    const double drift = (rr - 0.5 * v * v) * t;
    const double vol = v * sqrt(t);
    double sum = 0.0;
    for (int p = 0; p < n_paths; ++p) {
      const uint64_t h = splitmix64_mix(((uint64_t)(uint32_t)i << 32) + (uint64_t)(uint32_t)p + salt);
      const double u1 = (double)((h >> 40) + 1) * inv24;
      const double u2 = (double)((h >> 16) & 0xFFFFFFULL) * inv24;
      const double z = sqrt(-2.0 * log(u1)) * cos(two_pi * u2);
      const double st = s * exp(drift + vol * z);
      sum += st > k ? st - k : 0.0;
    }
    price[i] = (float)(exp(-rr * t) * sum / (double)n_paths);
  }
}
