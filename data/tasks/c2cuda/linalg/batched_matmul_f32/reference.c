/* For every b: C[b] = A[b] * B[b] with A[b] at A + b*m*k (m x k), B[b] at B + b*k*n (k x n),
   C[b] at C + b*m*n (m x n), all row-major; dot products accumulated in double. */
#include <stddef.h>

void batched_matmul_f32(int batch, int m, int k, int n, const float* A, const float* B, float* C) {
  for (int b = 0; b < batch; ++b) {
    const float* a = A + (size_t)b * (size_t)m * (size_t)k;
    const float* bb = B + (size_t)b * (size_t)k * (size_t)n;
    float* c = C + (size_t)b * (size_t)m * (size_t)n;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double acc = 0.0;
        for (int t = 0; t < k; ++t) acc += (double)a[(size_t)i * k + t] * (double)bb[(size_t)t * n + j];
        c[(size_t)i * n + j] = (float)acc;
      }
  }
}
