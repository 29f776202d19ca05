// strategy: naive (weak) — one thread per matrix, scalar loads and stores strided 64 bytes across the warp (uncoalesced), textbook Gauss-Jordan elimination on an augmented [M | I] array with a division for every pivot-row entry
#include <cuda_runtime.h>

__global__ void inverse4x4_naive_kernel(int batch, const float* A, float* Minv) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* a = A + (size_t)b * 16;
  float w[4][8];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      w[i][j] = a[i * 4 + j] + (i == j ? 5.0f : 0.0f);
      w[i][j + 4] = (i == j) ? 1.0f : 0.0f;
    }
  for (int k = 0; k < 4; ++k) {
    const float p = w[k][k];
    for (int j = 0; j < 8; ++j) w[k][j] /= p;
    for (int i = 0; i < 4; ++i) {
      if (i == k) continue;
      const float f = w[i][k];
      for (int j = 0; j < 8; ++j) w[i][j] -= f * w[k][j];
    }
  }
  float* o = Minv + (size_t)b * 16;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) o[i * 4 + j] = w[i][j + 4];
}

extern "C" void inverse4x4(int batch, const float* A, float* Minv, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 128;
  inverse4x4_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, A, Minv);
}
