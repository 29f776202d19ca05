// strategy: smem_tiled — 64x64 output tile per CTA of 16x16 threads, each thread a 4x4 strided block of pairs; 32-word slabs of the 64 query and 64 item fingerprints are staged in shared memory (coalesced row loads, padded) and reused 64 times; AND and OR popcounts accumulated in registers
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kTile = 64;
constexpr int kSlab = 32;  // words per stage

__global__ void __launch_bounds__(256)
jaccard_tiled_kernel(int nq, int nd, int W, const uint32_t* __restrict__ qbits, const uint32_t* __restrict__ dbits,
                     float* __restrict__ out) {
  __shared__ uint32_t sq[kTile][kSlab + 1];
  __shared__ uint32_t sd[kTile][kSlab + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int i0 = blockIdx.y * kTile, j0 = blockIdx.x * kTile;
  int inter[4][4], uni[4][4];
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int b = 0; b < 4; ++b) inter[a][b] = uni[a][b] = 0;

  for (int w0 = 0; w0 < W; w0 += kSlab) {
    // 64 rows x 32 words per operand: lanes run along a row's words (coalesced)
    for (int e = tid; e < kTile * kSlab; e += 256) {
      const int r = e / kSlab, k = e % kSlab;
      const int w = w0 + k;
      sq[r][k] = (i0 + r < nq && w < W) ? __ldg(qbits + (long long)(i0 + r) * W + w) : 0u;
      sd[r][k] = (j0 + r < nd && w < W) ? __ldg(dbits + (long long)(j0 + r) * W + w) : 0u;
    }
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < kSlab; ++k) {
      uint32_t qa[4], db[4];
#pragma unroll
      for (int a = 0; a < 4; ++a) qa[a] = sq[ty + 16 * a][k];
#pragma unroll
      for (int b = 0; b < 4; ++b) db[b] = sd[tx + 16 * b][k];
#pragma unroll
      for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          inter[a][b] += __popc(qa[a] & db[b]);
          uni[a][b] += __popc(qa[a] | db[b]);
        }
    }
    __syncthreads();
  }
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    const int i = i0 + ty + 16 * a;
    if (i >= nq) continue;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const int j = j0 + tx + 16 * b;
      if (j < nd) out[(long long)i * nd + j] = uni[a][b] == 0 ? 0.0f : (float)inter[a][b] / (float)uni[a][b];
    }
  }
}

}  // namespace

extern "C" void jaccard_bitsets(int nq, int nd, int W, const uint32_t* qbits, const uint32_t* dbits, float* out,
                                cudaStream_t stream) {
  if (nq <= 0 || nd <= 0) return;
  const dim3 grid((nd + kTile - 1) / kTile, (nq + kTile - 1) / kTile), block(16, 16);
  jaccard_tiled_kernel<<<grid, block, 0, stream>>>(nq, nd, W, qbits, dbits, out);
}
