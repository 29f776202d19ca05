// strategy: naive (weak) — one thread per output with threadIdx.x walking rows, so neighbouring threads read different rows of A and write C with stride N (uncoalesced); no data reuse
#include <cuda_runtime.h>

__global__ void gemm_bias_relu_naive_kernel(int M, int N, int K, const float* A, const float* B, const float* bias,
                                            float* C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  float s = 0.0f;
  for (int k = 0; k < K; ++k) s += A[(long long)i * K + k] * B[(long long)k * N + j];
  s += bias[j];
  C[(long long)i * N + j] = s > 0.0f ? s : 0.0f;
}

extern "C" void gemm_bias_relu_f32(int M, int N, int K, const float* A, const float* B, const float* bias, float* C,
                                   cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 block(16, 16);
  dim3 grid((M + 15) / 16, (N + 15) / 16);
  gemm_bias_relu_naive_kernel<<<grid, block, 0, stream>>>(M, N, K, A, B, bias, C);
}
