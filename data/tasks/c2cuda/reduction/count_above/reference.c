/* out[b] = #{ i in [0, n) : x[b*n + i] > thr } (strict comparison). */
#include <stdlib.h>

void count_above_f32(int batch, int n, float thr, const float* x, int* out) {
  for (int b = 0; b < batch; ++b) {
    const float* seg = x + (size_t)b * (size_t)n;
    int count = 0;
    for (int i = 0; i < n; ++i) count += (seg[i] > thr) ? 1 : 0;
    out[b] = count;
  }
}
