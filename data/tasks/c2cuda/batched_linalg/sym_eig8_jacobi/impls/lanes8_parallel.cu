// strategy: lanes8_parallel — parallel (round-robin tournament) Jacobi: 8 lanes per matrix, lane i holds row i; each of the 7 rounds of a sweep applies 4 disjoint rotations at once: rotation parameters are gathered with width-8 shuffles, the row half of J^T S J swaps rows with the partner lane by shuffle, the column half is register-local; eigenvalues are sorted with a bitonic shuffle network
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kSweeps = 8;

// round r pairs lane 7 with r and (r+k) mod 7 with (r-k) mod 7, k = 1..3
__host__ __device__ constexpr int pair_a(int r, int k) { return k == 0 ? r : (r + k) % 7; }
__host__ __device__ constexpr int pair_b(int r, int k) { return k == 0 ? 7 : (r - k + 7) % 7; }
__host__ __device__ constexpr int pair_lo(int r, int k) { return pair_a(r, k) < pair_b(r, k) ? pair_a(r, k) : pair_b(r, k); }
__host__ __device__ constexpr int pair_hi(int r, int k) { return pair_a(r, k) < pair_b(r, k) ? pair_b(r, k) : pair_a(r, k); }

__global__ void __launch_bounds__(256) eig8_lanes_kernel(int batch, const float* __restrict__ A, float* __restrict__ eig) {
  const long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long b = g >> 3;
  const int i = threadIdx.x & 7;
  const bool valid = b < batch;
  float v[8];
  if (valid) {
    const float* a = A + b * 64;
    const float4 r0 = __ldg(reinterpret_cast<const float4*>(a + i * 8));
    const float4 r1 = __ldg(reinterpret_cast<const float4*>(a + i * 8) + 1);
    const float row[8] = {r0.x, r0.y, r0.z, r0.w, r1.x, r1.y, r1.z, r1.w};
#pragma unroll
    for (int j = 0; j < 8; ++j) v[j] = 0.5f * (row[j] + __ldg(a + j * 8 + i));
  } else {
#pragma unroll
    for (int j = 0; j < 8; ++j) v[j] = 0.0f;  // dummy group: zero matrix, every rotation is the identity
  }

  for (int sweep = 0; sweep < kSweeps; ++sweep) {
#pragma unroll
    for (int r = 0; r < 7; ++r) {
      float cs[4], sn[4], tk[4], app[4], aqq[4], apq[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int p = pair_lo(r, k), q = pair_hi(r, k);
        app[k] = __shfl_sync(kFull, v[p], p, 8);
        aqq[k] = __shfl_sync(kFull, v[q], q, 8);
        apq[k] = __shfl_sync(kFull, v[q], p, 8);
        const bool live = apq[k] != 0.0f;
        const float theta = (aqq[k] - app[k]) / (2.0f * (live ? apq[k] : 1.0f));
        const float t = (theta >= 0.0f ? 1.0f : -1.0f) / (fabsf(theta) + sqrtf(theta * theta + 1.0f));
        tk[k] = live ? t : 0.0f;
        cs[k] = rsqrtf(tk[k] * tk[k] + 1.0f);
        sn[k] = tk[k] * cs[k];
      }
      // row half: rows p and q of the pair that contains this lane
      const int partner = (i == 7) ? r : (i == r ? 7 : (2 * r - i + 14) % 7);
      const int dist = (i - r + 7) % 7;
      const int mine = (i == 7 || i == r) ? 0 : (dist <= 3 ? dist : 7 - dist);
      const float c = mine == 0 ? cs[0] : mine == 1 ? cs[1] : mine == 2 ? cs[2] : cs[3];
      const float s = mine == 0 ? sn[0] : mine == 1 ? sn[1] : mine == 2 ? sn[2] : sn[3];
      const float sg = i < partner ? -s : s;  // low row: c*v - s*w, high row: c*v + s*w
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const float w = __shfl_sync(kFull, v[j], partner, 8);
        v[j] = c * v[j] + sg * w;
      }
      // column half, register-local for all four disjoint pairs; then the exact 2x2 result
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int p = pair_lo(r, k), q = pair_hi(r, k);
        const float xp = v[p], xq = v[q];
        v[p] = cs[k] * xp - sn[k] * xq;
        v[q] = sn[k] * xp + cs[k] * xq;
        if (i == p) {
          v[p] = app[k] - tk[k] * apq[k];
          v[q] = 0.0f;
        } else if (i == q) {
          v[q] = aqq[k] + tk[k] * apq[k];
          v[p] = 0.0f;
        }
      }
    }
  }

  float x = 0.0f;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    if (j == i) x = v[j];
  // bitonic sort of the 8 diagonal entries across the lane group, ascending by lane
#pragma unroll
  for (int kk = 2; kk <= 8; kk <<= 1)
#pragma unroll
    for (int jj = kk >> 1; jj > 0; jj >>= 1) {
      const float o = __shfl_xor_sync(kFull, x, jj, 8);
      const bool up = (i & kk) == 0;
      const bool take_min = ((i & jj) == 0) == up;
      x = take_min ? fminf(x, o) : fmaxf(x, o);
    }
  if (valid) __stcs(eig + b * 8 + i, x);
}

}  // namespace

extern "C" void sym_eig8_jacobi(int batch, const float* A, float* eig, cudaStream_t stream) {
  if (batch <= 0) return;
  const long long lanes = (long long)batch * 8;
  const int threads = 256;
  eig8_lanes_kernel<<<(unsigned int)((lanes + threads - 1) / threads), threads, 0, stream>>>(batch, A, eig);
}
