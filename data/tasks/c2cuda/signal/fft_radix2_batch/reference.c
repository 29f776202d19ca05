/* Batched forward complex FFT, length n = 2^logn, interleaved (re, im) floats.
   Iterative radix-2 decimation in time, computed in double: bit-reversal permutation, then
   logn butterfly stages with twiddles exp(-2*pi*i*k/len). */
#include <math.h>
#include <stdlib.h>

static unsigned int bit_reverse(unsigned int v, int bits) {
  unsigned int r = 0;
  for (int b = 0; b < bits; ++b) {
    r = (r << 1) | (v & 1u);
    v >>= 1;
  }
  return r;
}

void fft_radix2_batch(int batch, int logn, const float* x, float* y) {
  const int n = 1 << logn;
  const double pi = 3.14159265358979323846;
  double* re = (double*)malloc(sizeof(double) * (size_t)n);
  double* im = (double*)malloc(sizeof(double) * (size_t)n);
  if (!re || !im) {
    free(re);
    free(im);
    return;
  }
  for (int b = 0; b < batch; ++b) {
    const float* xs = x + 2 * (size_t)b * (size_t)n;
    float* ys = y + 2 * (size_t)b * (size_t)n;
    for (int j = 0; j < n; ++j) {
      const unsigned int r = bit_reverse((unsigned int)j, logn);
      re[r] = (double)xs[2 * j];
      im[r] = (double)xs[2 * j + 1];
    }
    for (int hs = 1; hs < n; hs <<= 1) {
      for (int k = 0; k < hs; ++k) {
        const double ang = -pi * (double)k / (double)hs;
        const double wr = cos(ang), wi = sin(ang);
        for (int base = 0; base < n; base += 2 * hs) {
          const int i0 = base + k, i1 = base + k + hs;
          const double br = re[i1] * wr - im[i1] * wi;
          const double bi = re[i1] * wi + im[i1] * wr;
          const double ar = re[i0], ai = im[i0];
          re[i0] = ar + br;
          im[i0] = ai + bi;
          re[i1] = ar - br;
          im[i1] = ai - bi;
        }
      }
    }
    for (int j = 0; j < n; ++j) {
      ys[2 * j] = (float)re[j];
      ys[2 * j + 1] = (float)im[j];
    }
  }
  free(re);
  free(im);
}
