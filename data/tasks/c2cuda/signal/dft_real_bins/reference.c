/* Direct real-input DFT at bins 0..nbins-1. The twiddle index j*k is reduced mod n exactly,
   twiddles come from a double table, sums are accumulated in double. */
#include <math.h>
#include <stdlib.h>

void dft_real_bins(int batch, int n, int nbins, const float* x, float* out) {
  const double pi = 3.14159265358979323846;
  double* c = (double*)malloc(sizeof(double) * (size_t)n);
  double* s = (double*)malloc(sizeof(double) * (size_t)n);
  if (!c || !s) {
    free(c);
    free(s);
    return;
  }
  for (int r = 0; r < n; ++r) {
    c[r] = cos(2.0 * pi * (double)r / (double)n);
    s[r] = -sin(2.0 * pi * (double)r / (double)n);
  }
  for (int b = 0; b < batch; ++b) {
    const float* xb = x + (long long)b * n;
    for (int k = 0; k < nbins; ++k) {
      double re = 0.0, im = 0.0;
      int idx = 0;  // (j * k) mod n
      for (int j = 0; j < n; ++j) {
        re += (double)xb[j] * c[idx];
        im += (double)xb[j] * s[idx];
        idx += k;
        if (idx >= n) idx -= n;
      }
      out[2 * ((long long)b * nbins + k)] = (float)re;
      out[2 * ((long long)b * nbins + k) + 1] = (float)im;
    }
  }
  free(c);
  free(s);
}
