/* American put on a Cox-Ross-Rubinstein tree, N = steps >= 1:
 *   dt = T/N, a = sigma*sqrt(dt), u = e^a, pu = (e^{r dt} - e^{-a}) / (e^a - e^{-a}), pd = 1 - pu,
 *   disc = e^{-r dt}; node (i, j) (i = time step, j = up moves, 0 <= j <= i) has spot
 *   S_ij = S * exp(a * (2j - i)).
 *   V_Nj = max(K - S_Nj, 0);  V_ij = max(disc * (pu V_{i+1,j+1} + pd V_{i+1,j}), K - S_ij)
 *   price = V_00. Double precision. */
#include <math.h>
#include <stdlib.h>

void binomial_american(int n_opt, int steps, double r, const double* S, const double* K,
                       const double* T, const double* sigma, double* price) {
  const int N = steps;
  double* V = (double*)malloc(((size_t)N + 1) * sizeof(double));
  if (!V) return;
  for (int o = 0; o < n_opt; ++o) {
    const double s = S[o], k = K[o];
    const double dt = T[o] / N;
    const double a = sigma[o] * sqrt(dt);
    const double pu = (exp(r * dt) - exp(-a)) / (exp(a) - exp(-a));
    const double pd = 1.0 - pu;
    const double disc = exp(-r * dt);
    for (int j = 0; j <= N; ++j) {
      const double ex = k - s * exp(a * (double)(2 * j - N));
      V[j] = ex > 0.0 ? ex : 0.0;
    }
    for (int i = N - 1; i >= 0; --i) {
      for (int j = 0; j <= i; ++j) {
        const double cont = disc * (pu * V[j + 1] + pd * V[j]);
        const double ex = k - s * exp(a * (double)(2 * j - i));
        V[j] = cont > ex ? cont : ex;
      }
    }
    price[o] = V[0];
  }
  free(V);
}
