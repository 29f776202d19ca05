// strategy: naive (weak) — one thread per output pixel, threadIdx.x mapped to rows (uncoalesced), all 49 weights and 49 neighbours re-read from global memory with per-tap bounds checks
#include <cuda_runtime.h>

__global__ void conv7_naive_kernel(int n, int m, const float* k, const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  float s = 0.0f;
  for (int u = 0; u < 7; ++u) {
    const int ii = i + u - 3;
    for (int v = 0; v < 7; ++v) {
      const int jj = j + v - 3;
      if (ii >= 0 && ii < n && jj >= 0 && jj < m) s += k[u * 7 + v] * in[(long long)ii * m + jj];
    }
  }
  out[(long long)i * m + j] = s;
}

extern "C" void conv2d_7x7_zero(int n, int m, const float* k, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  dim3 block(32, 8);
  dim3 grid((n + 31) / 32, (m + 7) / 8);
  conv7_naive_kernel<<<grid, block, 0, stream>>>(n, m, k, in, out);
}
