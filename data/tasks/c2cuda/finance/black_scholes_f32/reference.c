/* Black-Scholes prices of European options (no dividends), evaluated in double:
 *   d1 = (ln(S/K) + (r + v^2/2) T) / (v sqrt(T)),  d2 = d1 - v sqrt(T),
 *   N(x) = erfc(-x / sqrt(2)) / 2
 *   call = S N(d1) - K e^{-rT} N(d2),   put = K e^{-rT} N(-d2) - S N(-d1). */
#include <math.h>

static double norm_cdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

void black_scholes_f32(int n, float r, float v, const float* S, const float* K, const float* T,
                       float* call, float* put) {
  const double rr = r, vv = v;
  for (int i = 0; i < n; ++i) {
    const double s = S[i], k = K[i], t = T[i];
    const double sq = sqrt(t);
    const double d1 = (log(s / k) + (rr + 0.5 * vv * vv) * t) / (vv * sq);
    const double d2 = d1 - vv * sq;
    const double kd = k * exp(-rr * t);
    call[i] = (float)(s * norm_cdf(d1) - kd * norm_cdf(d2));
    put[i] = (float)(kd * norm_cdf(-d2) - s * norm_cdf(-d1));
  }
}
