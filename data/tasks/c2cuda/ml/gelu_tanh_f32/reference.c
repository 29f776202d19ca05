/* GELU (tanh approximation) evaluated in double, rounded once to float. */
#include <math.h>

void gelu_tanh_f32(int n, const float* x, float* out) {
  const double k = 0.7978845608028654; /* sqrt(2/pi) */
  for (int i = 0; i < n; ++i) {
    const double v = (double)x[i];
    const double u = k * (v + 0.044715 * v * v * v);
    out[i] = (float)(0.5 * v * (1.0 + tanh(u)));
  }
}
