// strategy: naive (weak) — one thread per matrix in the batch computes the whole m x n product serially; neighbouring threads touch addresses a whole matrix apart
#include <cuda_runtime.h>

__global__ void bmm_naive_kernel(int batch, int m, int k, int n, const float* A, const float* B, float* C) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* a = A + (size_t)b * m * k;
  const float* bb = B + (size_t)b * k * n;
  float* c = C + (size_t)b * m * n;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0.f;
      for (int t = 0; t < k; ++t) acc += a[(size_t)i * k + t] * bb[(size_t)t * n + j];
      c[(size_t)i * n + j] = acc;
    }
}

extern "C" void batched_matmul_f32(int batch, int m, int k, int n, const float* A, const float* B, float* C,
                                   cudaStream_t stream) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  const int threads = 64;
  bmm_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, m, k, n, A, B, C);
}
