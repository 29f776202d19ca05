/* Per-sample barycentric interpolation of per-vertex attributes (background samples give 0);
   weights and sums in double. */
#include <stddef.h>

void barycentric_attr_interp_f32(int nv, int nt, int p, int k, const float* attr, const int* tri, const int* tid,
                                 const float* uv, float* out) {
  (void)nv;
  (void)nt;
  for (int i = 0; i < p; ++i) {
    float* o = out + (size_t)i * k;
    const int t = tid[i];
    if (t < 0) {
      for (int ch = 0; ch < k; ++ch) o[ch] = 0.0f;
      continue;
    }
    const double u = uv[2 * (size_t)i], v = uv[2 * (size_t)i + 1];
    const double w0 = 1.0 - u - v;
    const float* a0 = attr + (size_t)tri[3 * (size_t)t] * k;
    const float* a1 = attr + (size_t)tri[3 * (size_t)t + 1] * k;
    const float* a2 = attr + (size_t)tri[3 * (size_t)t + 2] * k;
    for (int ch = 0; ch < k; ++ch) o[ch] = (float)(w0 * a0[ch] + u * a1[ch] + v * a2[ch]);
  }
}
