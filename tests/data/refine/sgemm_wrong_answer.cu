// Compiles and runs, but skips the first term of every dot product: wrong_answer on a GPU.
#include <cuda_runtime.h>

__global__ void sgemm_k(int M, int N, int K, const float* A, const float* B, float* C) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float acc = 0.f;
  for (int k = 1; k < K; ++k) acc += A[(size_t)i * K + k] * B[(size_t)k * N + j];
  C[(size_t)i * N + j] = acc;
}

extern "C" void sgemm_f32(int M, int N, int K, const float* A, const float* B, float* C, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  sgemm_k<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
