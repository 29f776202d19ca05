// strategy: naive (weak) — one thread per matrix runs the Cholesky-Banachiewicz loops straight out of global memory (A read twice per entry, L re-read for every dot product; a warp's accesses are n*n floats apart)
#include <cuda_runtime.h>

__global__ void cholesky_naive_kernel(int batch, int n, const float* A, float* L) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* a = A + (size_t)b * n * n;
  float* l = L + (size_t)b * n * n;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      float s = 0.5f * (a[i * n + j] + a[j * n + i]);
      if (i == j) s += (float)(n + 1);
      for (int p = 0; p < j; ++p) s -= l[i * n + p] * l[j * n + p];
      l[i * n + j] = (i == j) ? sqrtf(s) : s / l[j * n + j];
    }
    for (int j = i + 1; j < n; ++j) l[i * n + j] = 0.0f;
  }
}

extern "C" void cholesky_spd(int batch, int n, const float* A, float* L, cudaStream_t stream) {
  if (batch <= 0 || n <= 0) return;
  const int threads = 128;
  cholesky_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, n, A, L);
}
