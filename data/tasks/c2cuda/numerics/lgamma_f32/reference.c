/* Elementwise log-gamma, evaluated in double. */
#include <math.h>

void lgamma_f32(int n, const float* x, float* out) {
  for (int i = 0; i < n; ++i) out[i] = (float)lgamma((double)x[i]);
}
