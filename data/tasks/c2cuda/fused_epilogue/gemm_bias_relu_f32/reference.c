/* C = relu(A * B + bias): dense GEMM with a per-column bias and ReLU fused into the epilogue.
   Dot products accumulate in double. */
void gemm_bias_relu_f32(int M, int N, int K, const float* A, const float* B, const float* bias, float* C) {
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double s = (double)bias[j];
      for (int k = 0; k < K; ++k) s += (double)A[(long long)i * K + k] * (double)B[(long long)k * N + j];
      C[(long long)i * N + j] = s > 0.0 ? (float)s : 0.0f;
    }
  }
}
