// strategy: warp_right_looking — one warp per matrix, lane i keeps row i of the lower triangle in registers; right-looking outer-product Cholesky with the pivot column broadcast by __shfl_sync; coalesced load/store through a padded shared-memory transpose tile
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarps = 4;

__global__ void __launch_bounds__(kWarps * 32) cholesky_warp_kernel(int batch, int n, const float* __restrict__ A,
                                                                     float* __restrict__ L) {
  __shared__ float tile[kWarps][32][33];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const long long b = (long long)blockIdx.x * kWarps + wid;
  if (b >= batch) return;  // whole warp leaves together
  const int nn = n * n;
  const float* a = A + b * nn;
  float(*t)[33] = tile[wid];
  for (int e = lane; e < nn; e += 32) t[e / n][e % n] = __ldcs(a + e);
  __syncwarp();

  const int i = lane;
  const float shift = (float)(n + 1);
  float v[32];
#pragma unroll
  for (int j = 0; j < 32; ++j) {
    float m = 0.0f;
    if (j < n && i < n && j <= i) m = 0.5f * (t[i][j] + t[j][i]) + (j == i ? shift : 0.0f);
    v[j] = (i >= n && j == i) ? 1.0f : m;  // idle lanes carry a harmless identity row
  }

  // n is warp-uniform, so every shuffle below is executed by all 32 lanes
#pragma unroll
  for (int k = 0; k < 32; ++k) {
    if (k >= n) break;
    const float lkk = sqrtf(__shfl_sync(kFull, v[k], k));
    if (i == k) v[k] = lkk;
    else if (i > k) v[k] = v[k] / lkk;
#pragma unroll
    for (int j = k + 1; j < 32; ++j) {
      if (j >= n) break;
      const float ljk = __shfl_sync(kFull, v[k], j);
      if (i >= j) v[j] -= v[k] * ljk;
    }
  }

  __syncwarp();
#pragma unroll
  for (int j = 0; j < 32; ++j)
    if (j < n && i < n) t[i][j] = (j <= i) ? v[j] : 0.0f;
  __syncwarp();
  float* l = L + b * nn;
  for (int e = lane; e < nn; e += 32) __stcs(l + e, t[e / n][e % n]);
}

}  // namespace

extern "C" void cholesky_spd(int batch, int n, const float* A, float* L, cudaStream_t stream) {
  if (batch <= 0 || n <= 0) return;
  const long long blocks = ((long long)batch + kWarps - 1) / kWarps;
  cholesky_warp_kernel<<<(unsigned int)blocks, kWarps * 32, 0, stream>>>(batch, n, A, L);
}
