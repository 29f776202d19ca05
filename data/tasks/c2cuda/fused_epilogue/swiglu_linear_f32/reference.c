/* SwiGLU: out = (X*W1) .* silu(X*W2), silu(h) = h * sigmoid(h). Both products accumulate in double. */
#include <math.h>

void swiglu_linear_f32(int M, int N, int K, const float* X, const float* W1, const float* W2, float* out) {
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double g = 0.0, h = 0.0;
      for (int k = 0; k < K; ++k) {
        const double x = (double)X[(long long)i * K + k];
        g += x * (double)W1[(long long)k * N + j];
        h += x * (double)W2[(long long)k * N + j];
      }
      out[(long long)i * N + j] = (float)(g * (h / (1.0 + exp(-h))));
    }
  }
}
