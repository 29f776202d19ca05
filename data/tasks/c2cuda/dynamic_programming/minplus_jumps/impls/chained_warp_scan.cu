// strategy: chained_warp_scan — one pass: each thread builds the 4x4 min-plus transfer matrix of its 64 positions, a warp computes prefix products of those matrices with a __shfl_up_sync Hillis-Steele scan, and blocks (taken in start order from an atomic ticket) chain their outgoing 4-state through global flags, so only one matrix-vector pass per warp sits on the serial path
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu
#define SC 64    // positions per thread
#define TPB 256  // threads per block
#define NWARP (TPB / 32)
#define INF (1LL << 60)

__device__ __forceinline__ long long sat(long long x) { return x < INF ? x : INF; }

__device__ __forceinline__ void mat_identity(long long* m) {
#pragma unroll
  for (int k = 0; k < 16; ++k) m[k] = (k % 5 == 0) ? 0 : INF;
}

// m <- A_i (x) m, A_i: row 0 = the four jump weights of position i, rows 1..3 shift the state
__device__ __forceinline__ void step_mat(long long* m, int4 wv) {
  long long r0[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    long long v = sat(m[c] + wv.x);
    v = min(v, sat(m[4 + c] + wv.y));
    v = min(v, sat(m[8 + c] + wv.z));
    v = min(v, sat(m[12 + c] + wv.w));
    r0[c] = v;
  }
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    m[12 + c] = m[8 + c];
    m[8 + c] = m[4 + c];
    m[4 + c] = m[c];
    m[c] = r0[c];
  }
}

__device__ __forceinline__ void apply_mat(const long long* m, long long* s) {  // s <- m (x) s
  long long o[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    long long v = INF;
#pragma unroll
    for (int c = 0; c < 4; ++c) v = min(v, sat(m[r * 4 + c] + s[c]));
    o[r] = v;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) s[r] = o[r];
}

__global__ void __launch_bounds__(TPB) minplus_chained_kernel(int n, const int* __restrict__ w, long long* __restrict__ dp,
                                                              long long* out_state, int* ticket, volatile int* flags) {
  __shared__ int s_blk;
  __shared__ long long wagg[NWARP][16];
  __shared__ long long win[NWARP][4];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (tid == 0) s_blk = atomicAdd(ticket, 1);
  __syncthreads();
  const int blk = s_blk;
  const long long lo = (long long)blk * TPB * SC + (long long)tid * SC;
  const long long hi = lo + SC < n ? lo + SC : n;
  const int4* w4 = reinterpret_cast<const int4*>(w);
  long long m[16];
  mat_identity(m);
  for (long long i = lo; i < hi; ++i) step_mat(m, __ldg(w4 + i));
  // inclusive warp scan: m_lane <- M_lane (x) ... (x) M_0
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    long long o[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) o[k] = __shfl_up_sync(FULL_MASK, m[k], d);
    if (lane >= d) {
      long long p[16];
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          long long v = INF;
#pragma unroll
          for (int k = 0; k < 4; ++k) v = min(v, sat(m[r * 4 + k] + o[k * 4 + c]));
          p[r * 4 + c] = v;
        }
#pragma unroll
      for (int k = 0; k < 16; ++k) m[k] = p[k];
    }
  }
  long long ex[16];  // exclusive prefix of this lane inside its warp
#pragma unroll
  for (int k = 0; k < 16; ++k) ex[k] = __shfl_up_sync(FULL_MASK, m[k], 1);
  if (lane == 0) mat_identity(ex);
  if (lane == 31)
#pragma unroll
    for (int k = 0; k < 16; ++k) wagg[warp][k] = m[k];
  __syncthreads();
  if (tid == 0) {
    long long s[4] = {0, INF, INF, INF};  // state before position 0: (dp[-1], dp[-2], dp[-3], dp[-4])
    if (blk > 0) {
      while (flags[blk - 1] == 0) {
      }
      __threadfence();
#pragma unroll
      for (int k = 0; k < 4; ++k) s[k] = __ldcg(out_state + (size_t)(blk - 1) * 4 + k);
    }
    for (int wv = 0; wv < NWARP; ++wv) {
#pragma unroll
      for (int k = 0; k < 4; ++k) win[wv][k] = s[k];
      apply_mat(wagg[wv], s);
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) out_state[(size_t)blk * 4 + k] = s[k];
    __threadfence();
    flags[blk] = 1;
  }
  __syncthreads();
  long long s[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) s[k] = win[warp][k];
  apply_mat(ex, s);
  long long s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  for (long long i = lo; i < hi; ++i) {
    const int4 wv = __ldg(w4 + i);
    long long v = min(min(sat(s0 + wv.x), sat(s1 + wv.y)), min(sat(s2 + wv.z), sat(s3 + wv.w)));
    dp[i] = v;
    s3 = s2;
    s2 = s1;
    s1 = s0;
    s0 = v;
  }
}

extern "C" void minplus_jumps(int n, const int* w, long long* dp, cudaStream_t stream) {
  if (n <= 0) return;
  const long long per_block = (long long)TPB * SC;
  const int nblocks = (int)((n + per_block - 1) / per_block);
  long long* scratch = nullptr;
  const size_t state_bytes = sizeof(long long) * 4 * (size_t)nblocks;
  const size_t flag_bytes = sizeof(int) * ((size_t)nblocks + 1);
  cudaMallocAsync((void**)&scratch, state_bytes + flag_bytes, stream);
  int* ticket = reinterpret_cast<int*>(reinterpret_cast<char*>(scratch) + state_bytes);
  cudaMemsetAsync(ticket, 0, flag_bytes, stream);
  minplus_chained_kernel<<<nblocks, TPB, 0, stream>>>(n, w, dp, scratch, ticket, ticket + 1);
  cudaFreeAsync(scratch, stream);
}
