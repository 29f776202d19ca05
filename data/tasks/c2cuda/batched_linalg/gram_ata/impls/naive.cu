// strategy: naive (weak) — one thread per output entry G[b][i][j] walks all m rows of its matrix in global memory (every A element is fetched 2k times, no reuse in registers or shared memory)
#include <cuda_runtime.h>

__global__ void gram_naive_kernel(int batch, int m, int k, const float* A, float* G) {
  const long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long kk = (long long)k * k;
  if (id >= (long long)batch * kk) return;
  const long long b = id / kk;
  const int e = (int)(id - b * kk), i = e / k, j = e % k;
  const float* a = A + b * m * k;
  float s = 0.0f;
  for (int r = 0; r < m; ++r) s += a[(long long)r * k + i] * a[(long long)r * k + j];
  G[id] = s;
}

extern "C" void gram_ata(int batch, int m, int k, const float* A, float* G, cudaStream_t stream) {
  if (batch <= 0 || k <= 0) return;
  const long long total = (long long)batch * k * k;
  const int threads = 256;
  gram_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(batch, m, k, A, G);
}
