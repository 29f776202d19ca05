/* Lanczos-3 resampling (align_corners = false, clamped taps, weights normalised by their sum).
   The source position's floor and fraction come from integer arithmetic; the kernel and the sums
   are evaluated in double. */
#include <math.h>
#include <stddef.h>

static const double kPi = 3.14159265358979323846;

static double lanczos3(double d) {
  if (d == 0.0) return 1.0;
  const double a = kPi * d;
  return 3.0 * sin(a) * sin(a / 3.0) / (a * a);
}

void lanczos3_resample_f32(int b, int n, int m, const float* in, float* out) {
  for (int j = 0; j < m; ++j) {
    const long long num = (long long)(2 * j + 1) * n - m, den = 2LL * m;
    const long long q = num >= 0 ? num / den : -((-num + den - 1) / den);
    const double t = (double)(num - q * den) / (double)den;
    double wt[6];
    int idx[6];
    double wsum = 0.0;
    for (int k = -2; k <= 3; ++k) {
      long long i = q + k;
      if (i < 0) i = 0;
      if (i > n - 1) i = n - 1;
      idx[k + 2] = (int)i;
      wt[k + 2] = lanczos3(t - (double)k);
      wsum += wt[k + 2];
    }
    for (int r = 0; r < b; ++r) {
      const float* row = in + (size_t)r * n;
      double acc = 0.0;
      for (int k = 0; k < 6; ++k) acc += wt[k] * row[idx[k]];
      out[(size_t)r * m + j] = (float)(acc / wsum);
    }
  }
}
