// strategy: smem_register_tile — block per matrix: 128-row slabs of A are staged in shared memory (one contiguous coalesced run, columns zero-padded to 32), four 64-thread groups each take 32 of the slab's rows and every thread accumulates a 4x4 register tile of G from float4 shared-memory reads (16 FMAs per 8 loads); group partials are combined in a fixed order
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSlab = 128;          // rows staged per step
constexpr int kGroups = 4;          // 64-thread groups, one quarter of the slab each
constexpr int kRowsPerGroup = kSlab / kGroups;

__global__ void __launch_bounds__(kThreads) gram_tile_kernel(int m, int k, const float* __restrict__ A, float* __restrict__ G) {
  __shared__ __align__(16) float As[kSlab][32];
  __shared__ float part[kGroups][32][33];
  const int t = threadIdx.x;
  const int grp = t >> 6, gt = t & 63;
  const int ti = gt >> 3, tj = gt & 7;  // tile (rows 4ti..4ti+3, cols 4tj..4tj+3) of G
  const long long b = blockIdx.x;
  const float* a = A + b * m * k;
  for (int e = t; e < kSlab * 32; e += kThreads) (&As[0][0])[e] = 0.0f;  // padding columns stay zero
  float acc[4][4];
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[p][q] = 0.0f;

  for (int r0 = 0; r0 < m; r0 += kSlab) {
    const int rows = min(kSlab, m - r0);
    __syncthreads();  // previous slab fully consumed (and the zero fill done)
    const float* src = a + (long long)r0 * k;
    for (int q = t; q < rows * k; q += kThreads) {
      const int rr = q / k;
      As[rr][q - rr * k] = __ldcs(src + q);
    }
    if (rows < kSlab)
      for (int q = t; q < (kSlab - rows) * 32; q += kThreads) As[rows + q / 32][q % 32] = 0.0f;
    __syncthreads();
#pragma unroll 4
    for (int rr = grp * kRowsPerGroup; rr < (grp + 1) * kRowsPerGroup; ++rr) {
      const float4 u = *reinterpret_cast<const float4*>(&As[rr][4 * ti]);
      const float4 w = *reinterpret_cast<const float4*>(&As[rr][4 * tj]);
      const float uu[4] = {u.x, u.y, u.z, u.w};
      const float ww[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
      for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[p][q] += uu[p] * ww[q];
    }
  }
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) part[grp][4 * ti + p][4 * tj + q] = acc[p][q];
  __syncthreads();
  float* g = G + b * k * k;
  for (int e = t; e < k * k; e += kThreads) {
    const int i = e / k, j = e - i * k;
    g[e] = ((part[0][i][j] + part[1][i][j]) + part[2][i][j]) + part[3][i][j];
  }
}

}  // namespace

extern "C" void gram_ata(int batch, int m, int k, const float* A, float* G, cudaStream_t stream) {
  if (batch <= 0 || k <= 0) return;
  gram_tile_kernel<<<(unsigned int)batch, kThreads, 0, stream>>>(m, k, A, G);
}
