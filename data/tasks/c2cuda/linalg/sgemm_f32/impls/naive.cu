// strategy: naive (weak) — one thread per C element straight from global memory, with threadIdx.x mapped to the row index so A, B and C accesses are strided across the warp; no data reuse
#include <cuda_runtime.h>

__global__ void sgemm_naive_kernel(int M, int N, int K, const float* A, const float* B, float* C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += A[(size_t)i * K + k] * B[(size_t)k * N + j];
  C[(size_t)i * N + j] = acc;
}

extern "C" void sgemm_f32(int M, int N, int K, const float* A, const float* B, float* C, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 block(16, 16);
  dim3 grid((M + 15) / 16, (N + 15) / 16);
  sgemm_naive_kernel<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
