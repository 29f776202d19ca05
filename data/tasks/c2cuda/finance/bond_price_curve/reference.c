/* Fixed-coupon bond prices off a zero curve. Period t = 1..m ends at time t*dt and has discount
 * factor DF_t = exp(-zr[t-1] * t * dt). Bond b pays face*coupon*dt at the end of periods
 * 1..M and the face at period M, M = mat[b] (clamped into [1, m]):
 *   price[b] = sum_{t=1}^{M} face*coupon*dt * DF_t  +  face * DF_M      (summed in t order). */
#include <math.h>
#include <stdlib.h>

void bond_price_curve(int n, int m, double dt, const double* zr, const double* coupon,
                      const double* face, const int* mat, double* price) {
  if (m <= 0) return;
  double* df = (double*)malloc((size_t)m * sizeof(double));
  if (!df) return;
  for (int t = 1; t <= m; ++t) df[t - 1] = exp(-zr[t - 1] * ((double)t * dt));
  for (int b = 0; b < n; ++b) {
    int M = mat[b];
    if (M < 1) M = 1;
    if (M > m) M = m;
    const double cf = face[b] * coupon[b] * dt;
    double acc = 0.0;
    for (int t = 1; t <= M; ++t) acc += cf * df[t - 1];
    price[b] = acc + face[b] * df[M - 1];
  }
  free(df);
}
