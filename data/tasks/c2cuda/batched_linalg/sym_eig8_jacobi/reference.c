/* Batched symmetric 8x8 eigenvalues: cyclic Jacobi in double until the off-diagonal mass is negligible, then sort. */
#include <math.h>

void sym_eig8_jacobi(int batch, const float* A, float* eig) {
  double s[8][8];
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (long long)b * 64;
    double fro = 0.0;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        s[i][j] = 0.5 * ((double)a[i * 8 + j] + (double)a[j * 8 + i]);
        fro += s[i][j] * s[i][j];
      }
    for (int sweep = 0; sweep < 50; ++sweep) {
      double off = 0.0;
      for (int p = 0; p < 8; ++p)
        for (int q = p + 1; q < 8; ++q) off += s[p][q] * s[p][q];
      if (off <= 1e-32 * fro) break;
      for (int p = 0; p < 7; ++p)
        for (int q = p + 1; q < 8; ++q) {
          const double apq = s[p][q];
          if (apq == 0.0) continue;
          const double theta = (s[q][q] - s[p][p]) / (2.0 * apq);
          const double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
          const double c = 1.0 / sqrt(t * t + 1.0), sn = t * c;
          for (int r = 0; r < 8; ++r) {  // columns p, q
            const double rp = s[r][p], rq = s[r][q];
            s[r][p] = c * rp - sn * rq;
            s[r][q] = sn * rp + c * rq;
          }
          for (int r = 0; r < 8; ++r) {  // rows p, q
            const double pr = s[p][r], qr = s[q][r];
            s[p][r] = c * pr - sn * qr;
            s[q][r] = sn * pr + c * qr;
          }
          s[p][q] = s[q][p] = 0.0;
        }
    }
    double d[8];
    for (int i = 0; i < 8; ++i) d[i] = s[i][i];
    for (int i = 1; i < 8; ++i) {
      const double v = d[i];
      int j = i - 1;
      while (j >= 0 && d[j] > v) {
        d[j + 1] = d[j];
        --j;
      }
      d[j + 1] = v;
    }
    for (int i = 0; i < 8; ++i) eig[(long long)b * 8 + i] = (float)d[i];
  }
}
