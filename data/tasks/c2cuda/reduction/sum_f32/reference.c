/* out[b] = sum of x[b*n .. b*n + n-1], accumulated in double and rounded once to float. */
#include <stdlib.h>

void sum_f32(int batch, int n, const float* x, float* out) {
  for (int b = 0; b < batch; ++b) {
    const float* seg = x + (size_t)b * (size_t)n;
    double acc = 0.0;
    for (int i = 0; i < n; ++i) acc += (double)seg[i];
    out[b] = (float)acc;
  }
}
