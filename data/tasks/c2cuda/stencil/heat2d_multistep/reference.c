// `steps` explicit 5-point heat-equation sweeps with fixed border cells.
#include <stdlib.h>
#include <string.h>

void heat2d_multistep(int n, int m, int steps, float alpha, const float* in, float* out) {
  size_t cells = (size_t)n * (size_t)m;
  memcpy(out, in, cells * sizeof(float));
  if (steps <= 0 || cells == 0) return;
  float* tmp = (float*)malloc(cells * sizeof(float));
  if (!tmp) return;
  memcpy(tmp, in, cells * sizeof(float));  // borders never change
  float* src = out;
  float* dst = tmp;
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 1; j < m - 1; ++j) {
        long long k = (long long)i * m + j;
        float u = src[k];
        float lap = (((src[k - m] + src[k + m]) + src[k - 1]) + src[k + 1]) - 4.0f * u;
        dst[k] = u + alpha * lap;
      }
    }
    float* t = src;
    src = dst;
    dst = t;
  }
  if (src != out) memcpy(out, src, cells * sizeof(float));
  free(tmp);
}
