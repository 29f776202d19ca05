/* C[i*N + j] = sum_k A[i*K + k] * B[k*N + j], accumulated in double, rounded once to float. */
#include <stddef.h>
#include <stdlib.h>

void sgemm_f32(int M, int N, int K, const float* A, const float* B, float* C) {
  double* acc = (double*)malloc((size_t)(N > 0 ? N : 1) * sizeof(double));
  if (!acc) return;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) acc[j] = 0.0;
    for (int k = 0; k < K; ++k) {
      const double a = (double)A[(size_t)i * (size_t)K + (size_t)k];
      const float* brow = B + (size_t)k * (size_t)N;
      for (int j = 0; j < N; ++j) acc[j] += a * (double)brow[j];
    }
    for (int j = 0; j < N; ++j) C[(size_t)i * (size_t)N + (size_t)j] = (float)acc[j];
  }
  free(acc);
}
