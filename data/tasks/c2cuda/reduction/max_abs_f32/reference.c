/* out[0] = max_i |x[i]| (0 for an empty vector). Max is exact, so any order agrees. */
#include <math.h>

void max_abs_f32(int n, const float* x, float* out) {
  float m = 0.0f;
  for (int i = 0; i < n; ++i) {
    float a = fabsf(x[i]);
    if (a > m) m = a;
  }
  out[0] = m;
}
