// strategy: precount_regtile — inclusion-exclusion: a first pass stores every fingerprint's popcount, so |q OR d| = |q| + |d| - |q AND d| and the main loop needs one popcount per word pair; 128x128 tile per 256-thread CTA, 8x8 pairs per thread register-blocked from k-major shared slabs read as uint4, float4 stores
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kT = 128;      // tile edge
constexpr int kK = 8;        // words per stage
constexpr int kP = kT + 4;   // padded pitch (keeps uint4 alignment, spreads the staging stores over all banks)

__global__ void row_popcount_kernel(int rows, int W, const uint32_t* __restrict__ bits, int* __restrict__ cnt) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const uint32_t* p = bits + (long long)r * W;
  int c = 0;
  for (int w = 0; w < W; ++w) c += __popc(__ldg(p + w));
  cnt[r] = c;
}

__device__ __forceinline__ int owned(int t, int a) { return (a < 4) ? t * 4 + a : 64 + t * 4 + (a - 4); }

__global__ void __launch_bounds__(256)
jaccard_regtile_kernel(int nq, int nd, int W, const uint32_t* __restrict__ qbits, const uint32_t* __restrict__ dbits,
                       const int* __restrict__ cq, const int* __restrict__ cd, float* __restrict__ out) {
  __shared__ __align__(16) uint32_t sq[kK][kP];
  __shared__ __align__(16) uint32_t sd[kK][kP];
  const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
  const int i0 = blockIdx.y * kT, j0 = blockIdx.x * kT;
  int acc[8][8];
#pragma unroll
  for (int a = 0; a < 8; ++a)
#pragma unroll
    for (int b = 0; b < 8; ++b) acc[a][b] = 0;

  for (int w0 = 0; w0 < W; w0 += kK) {
#pragma unroll
    for (int s = 0; s < (kT * kK) / 256; ++s) {
      const int e = tid + 256 * s, r = e / kK, k = e % kK, w = w0 + k;
      sq[k][r] = (i0 + r < nq && w < W) ? __ldg(qbits + (long long)(i0 + r) * W + w) : 0u;
      sd[k][r] = (j0 + r < nd && w < W) ? __ldg(dbits + (long long)(j0 + r) * W + w) : 0u;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kK; ++k) {
      const uint4 q0 = *reinterpret_cast<const uint4*>(&sq[k][ty * 4]);
      const uint4 q1 = *reinterpret_cast<const uint4*>(&sq[k][64 + ty * 4]);
      const uint4 d0 = *reinterpret_cast<const uint4*>(&sd[k][tx * 4]);
      const uint4 d1 = *reinterpret_cast<const uint4*>(&sd[k][64 + tx * 4]);
      const uint32_t qv[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
      const uint32_t dv[8] = {d0.x, d0.y, d0.z, d0.w, d1.x, d1.y, d1.z, d1.w};
#pragma unroll
      for (int a = 0; a < 8; ++a)
#pragma unroll
        for (int b = 0; b < 8; ++b) acc[a][b] += __popc(qv[a] & dv[b]);
    }
    __syncthreads();
  }

  const bool vec_ok = (nd & 3) == 0;
#pragma unroll
  for (int a = 0; a < 8; ++a) {
    const int i = i0 + owned(ty, a);
    if (i >= nq) continue;
    const int ci = __ldg(cq + i);
    float* orow = out + (long long)i * nd;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int jb = j0 + owned(tx, 4 * h);
      float v[4];
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int j = jb + c;
        const int u = (j < nd) ? ci + __ldg(cd + j) - acc[a][4 * h + c] : 0;
        v[c] = u == 0 ? 0.0f : (float)acc[a][4 * h + c] / (float)u;
      }
      if (vec_ok && jb + 3 < nd) {
        *reinterpret_cast<float4*>(orow + jb) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int c = 0; c < 4; ++c)
          if (jb + c < nd) orow[jb + c] = v[c];
      }
    }
  }
}

}  // namespace

extern "C" void jaccard_bitsets(int nq, int nd, int W, const uint32_t* qbits, const uint32_t* dbits, float* out,
                                cudaStream_t stream) {
  if (nq <= 0 || nd <= 0) return;
  int* counts = nullptr;
  cudaMallocAsync(&counts, sizeof(int) * ((size_t)nq + nd), stream);
  row_popcount_kernel<<<(nq + 255) / 256, 256, 0, stream>>>(nq, W, qbits, counts);
  row_popcount_kernel<<<(nd + 255) / 256, 256, 0, stream>>>(nd, W, dbits, counts + nq);
  const dim3 grid((nd + kT - 1) / kT, (nq + kT - 1) / kT);
  jaccard_regtile_kernel<<<grid, 256, 0, stream>>>(nq, nd, W, qbits, dbits, counts, counts + nq, out);
  cudaFreeAsync(counts, stream);
}
