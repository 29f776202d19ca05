// strategy: naive (weak) — one thread per matrix, right-looking elimination done in place in the global output (each thread walks its own 1 KiB matrix, so a warp's accesses are 1 KiB apart)
#include <cuda_runtime.h>

__global__ void lu16_naive_kernel(int batch, const float* A, float* LU) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* a = A + (size_t)b * 256;
  float* w = LU + (size_t)b * 256;
  for (int e = 0; e < 256; ++e) w[e] = a[e] + ((e >> 4) == (e & 15) ? 16.0f : 0.0f);
  for (int k = 0; k < 16; ++k) {
    const float p = w[k * 16 + k];
    for (int i = k + 1; i < 16; ++i) {
      const float l = w[i * 16 + k] / p;
      w[i * 16 + k] = l;
      for (int j = k + 1; j < 16; ++j) w[i * 16 + j] -= l * w[k * 16 + j];
    }
  }
}

extern "C" void lu16_nopivot(int batch, const float* A, float* LU, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 128;
  lu16_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, A, LU);
}
