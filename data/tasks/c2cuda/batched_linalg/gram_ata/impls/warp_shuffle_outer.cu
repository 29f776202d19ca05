// strategy: warp_shuffle_outer — block per matrix, 8 warps split the rows round-robin; lane j holds A[r][j] from a coalesced row load and accumulates column j of G in 32 registers, A[r][i] is broadcast by __shfl_sync (rank-1 update per row); the 8 partial Gram matrices are summed in a fixed order through shared memory (deterministic)
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarps = 8;

__global__ void __launch_bounds__(kWarps * 32) gram_shfl_kernel(int m, int k, const float* __restrict__ A, float* __restrict__ G) {
  __shared__ float part[kWarps][32][33];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const long long b = blockIdx.x;
  const float* a = A + b * m * k;
  float acc[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) acc[i] = 0.0f;
  for (int r = wid; r < m; r += kWarps) {
    const float v = lane < k ? __ldcs(a + (long long)r * k + lane) : 0.0f;
#pragma unroll
    for (int i = 0; i < 32; ++i) {
      if (i >= k) break;  // k is uniform: every lane takes the same number of shuffles
      acc[i] += __shfl_sync(kFull, v, i) * v;
    }
  }
#pragma unroll
  for (int i = 0; i < 32; ++i) part[wid][i][lane] = acc[i];
  __syncthreads();
  float* g = G + b * k * k;
  for (int e = threadIdx.x; e < k * k; e += blockDim.x) {
    const int i = e / k, j = e - i * k;
    float s = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) s += part[w][i][j];
    g[e] = s;
  }
}

}  // namespace

extern "C" void gram_ata(int batch, int m, int k, const float* A, float* G, cudaStream_t stream) {
  if (batch <= 0 || k <= 0) return;
  gram_shfl_kernel<<<(unsigned int)batch, kWarps * 32, 0, stream>>>(m, k, A, G);
}
