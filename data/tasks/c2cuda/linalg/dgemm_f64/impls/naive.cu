// strategy: naive (weak) — one thread per C element straight from global memory, threadIdx.x mapped to the row index (strided A/B/C accesses across the warp), no data reuse
#include <cuda_runtime.h>

__global__ void dgemm_naive_kernel(int M, int N, int K, const double* A, const double* B, double* C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  double acc = 0.0;
  for (int k = 0; k < K; ++k) acc += A[(size_t)i * K + k] * B[(size_t)k * N + j];
  C[(size_t)i * N + j] = acc;
}

extern "C" void dgemm_f64(int M, int N, int K, const double* A, const double* B, double* C, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;
  dim3 block(16, 16);
  dim3 grid((M + 15) / 16, (N + 15) / 16);
  dgemm_naive_kernel<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
