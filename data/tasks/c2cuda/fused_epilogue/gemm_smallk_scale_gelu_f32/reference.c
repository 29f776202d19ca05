/* out = gelu_tanh(colscale[j] * sum_k A[i][k] B[k][j]); dot products and the activation in double. */
#include <math.h>

void gemm_smallk_scale_gelu_f32(int M, int N, int K, const float* A, const float* B, const float* colscale,
                                float* out) {
  const double c0 = 0.7978845608028654; /* sqrt(2/pi) */
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double s = 0.0;
      for (int k = 0; k < K; ++k) s += (double)A[(long long)i * K + k] * (double)B[(long long)k * N + j];
      const double v = (double)colscale[j] * s;
      out[(long long)i * N + j] = (float)(0.5 * v * (1.0 + tanh(c0 * (v + 0.044715 * v * v * v))));
    }
  }
}
