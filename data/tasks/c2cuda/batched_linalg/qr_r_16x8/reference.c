/* Batched Householder QR (double) of 16x8 matrices; R rows are sign-normalised to a non-negative diagonal. */
#include <math.h>

void qr_r_16x8(int batch, const float* A, float* R) {
  double w[16][8];
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (long long)b * 128;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) w[i][j] = (double)a[i * 8 + j];
    for (int j = 0; j < 8; ++j) {
      double norm2 = 0.0;
      for (int i = j; i < 16; ++i) norm2 += w[i][j] * w[i][j];
      const double norm = sqrt(norm2);
      const double ajj = w[j][j];
      const double alpha = ajj >= 0.0 ? -norm : norm;
      const double vtv = 2.0 * norm * (norm + fabs(ajj));
      if (vtv > 0.0) {
        double v[16];
        v[j] = ajj - alpha;
        for (int i = j + 1; i < 16; ++i) v[i] = w[i][j];
        for (int c = j + 1; c < 8; ++c) {
          double dot = 0.0;
          for (int i = j; i < 16; ++i) dot += v[i] * w[i][c];
          const double f = 2.0 * dot / vtv;
          for (int i = j; i < 16; ++i) w[i][c] -= f * v[i];
        }
      }
      w[j][j] = alpha;
      for (int i = j + 1; i < 16; ++i) w[i][j] = 0.0;
    }
    float* r = R + (long long)b * 64;
    for (int i = 0; i < 8; ++i) {
      const double sg = w[i][i] < 0.0 ? -1.0 : 1.0;
      for (int j = 0; j < 8; ++j) r[i * 8 + j] = j >= i ? (float)(sg * w[i][j]) : 0.0f;
    }
  }
}
