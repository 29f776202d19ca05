/* out[b] = the smallest i in [0, n) with x[b*n + i] == min of segment b; -1 when n == 0.
 * Comparison is the ordinary float '<' (so -0.0 and +0.0 tie; inputs have no NaN). */
#include <stdlib.h>

void argmin_f32(int batch, int n, const float* x, int* out) {
  for (int b = 0; b < batch; ++b) {
    if (n <= 0) {
      out[b] = -1;
      continue;
    }
    const float* seg = x + (size_t)b * (size_t)n;
    int best = 0;
    float bv = seg[0];
    for (int i = 1; i < n; ++i) {
      if (seg[i] < bv) {
        bv = seg[i];
        best = i;
      }
    }
    out[b] = best;
  }
}
