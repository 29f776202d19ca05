/* Black-Scholes-Merton with continuous dividend yield q, double precision:
 *   d1 = (ln(S/K) + (r - q + sigma^2/2) T) / (sigma sqrt(T)),  d2 = d1 - sigma sqrt(T)
 *   N(x) = erfc(-x / sqrt(2)) / 2
 *   call = S e^{-qT} N(d1) - K e^{-rT} N(d2),  put = K e^{-rT} N(-d2) - S e^{-qT} N(-d1). */
#include <math.h>

static double norm_cdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

void black_scholes_f64(int n, double r, double q, const double* S, const double* K,
                       const double* T, const double* sigma, double* call, double* put) {
  for (int i = 0; i < n; ++i) {
    const double s = S[i], k = K[i], t = T[i], v = sigma[i];
    const double vs = v * sqrt(t);
    const double d1 = (log(s / k) + (r - q + 0.5 * v * v) * t) / vs;
    const double d2 = d1 - vs;
    const double sd = s * exp(-q * t);
    const double kd = k * exp(-r * t);
    call[i] = sd * norm_cdf(d1) - kd * norm_cdf(d2);
    put[i] = kd * norm_cdf(-d2) - sd * norm_cdf(-d1);
  }
}
