/* C[i*N + j] = sum_k A[i*K + k] * B[k*N + j] in double, k summed in order. */
#include <stddef.h>

void dgemm_f64(int M, int N, int K, const double* A, const double* B, double* C) {
  for (int i = 0; i < M; ++i) {
    double* crow = C + (size_t)i * (size_t)N;
    for (int j = 0; j < N; ++j) crow[j] = 0.0;
    for (int k = 0; k < K; ++k) {
      const double a = A[(size_t)i * (size_t)K + (size_t)k];
      const double* brow = B + (size_t)k * (size_t)N;
      for (int j = 0; j < N; ++j) crow[j] += a * brow[j];
    }
  }
}
