// strategy: warp_shuffle — one warp per sequence with the delta row held in registers (lane owns states lane, lane+32, ...); delta[i] is broadcast by __shfl_sync, the block's warps share the transition matrix in shared memory, and the final argmax is a shuffle reduction
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu
#define WARPS_PER_BLOCK 4

template <int NQ, bool SMEM_TRANS>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
    viterbi_warp_kernel(int B, int T, int S, int V, const float* __restrict__ log_init,
                        const float* __restrict__ log_trans, const float* __restrict__ log_emit,
                        const int* __restrict__ obs, unsigned char* __restrict__ bp, int* __restrict__ path) {
  extern __shared__ float strans[];
  if (SMEM_TRANS) {
    for (int idx = threadIdx.x; idx < S * S; idx += blockDim.x) strans[idx] = log_trans[idx];
    __syncthreads();
  }
  const int lane = threadIdx.x & 31;
  const int b = blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
  if (b >= B) return;  // uniform per warp, after the only block barrier
  const int* o = obs + (size_t)b * T;
  unsigned char* bpb = bp + (size_t)b * T * S;
  float d[NQ];
  const int o0 = __ldg(o);
#pragma unroll
  for (int q = 0; q < NQ; ++q) {
    const int j = lane + 32 * q;
    d[q] = j < S ? __ldg(log_init + j) + __ldg(log_emit + (size_t)j * V + o0) : 0.0f;
  }
  for (int t = 1; t < T; ++t) {
    const int ot = __ldg(o + t);
    float best[NQ];
    int arg[NQ];
#pragma unroll
    for (int q = 0; q < NQ; ++q) {
      best[q] = -__int_as_float(0x7f800000);
      arg[q] = 0;
    }
#pragma unroll
    for (int qi = 0; qi < NQ; ++qi) {
      const int lim = S - 32 * qi < 32 ? S - 32 * qi : 32;
      for (int l = 0; l < lim; ++l) {  // lim is warp-uniform: every lane takes part in the shuffle
        const int i = 32 * qi + l;
        const float di = __shfl_sync(FULL_MASK, d[qi], l);
#pragma unroll
        for (int q = 0; q < NQ; ++q) {
          const int j = lane + 32 * q;
          if (j < S) {
            const float tr = SMEM_TRANS ? strans[i * S + j] : __ldg(log_trans + (size_t)i * S + j);
            const float v = di + tr;
            if (v > best[q]) {  // ascending i with strict '>' keeps the smallest maximiser
              best[q] = v;
              arg[q] = i;
            }
          }
        }
      }
    }
#pragma unroll
    for (int q = 0; q < NQ; ++q) {
      const int j = lane + 32 * q;
      if (j < S) {
        d[q] = best[q] + __ldg(log_emit + (size_t)j * V + ot);
        bpb[(size_t)t * S + j] = (unsigned char)arg[q];
      }
    }
  }
  // argmax over the final delta, smallest state on ties
  float bv = d[0];
  int bj = lane < S ? lane : 0x7fffffff;
  if (lane >= S) bv = -__int_as_float(0x7f800000);
#pragma unroll
  for (int q = 1; q < NQ; ++q) {
    const int j = lane + 32 * q;
    if (j < S && d[q] > bv) {
      bv = d[q];
      bj = j;
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const float ov = __shfl_xor_sync(FULL_MASK, bv, off);
    const int oj = __shfl_xor_sync(FULL_MASK, bj, off);
    if (ov > bv || (ov == bv && oj < bj)) {
      bv = ov;
      bj = oj;
    }
  }
  __syncwarp();  // backpointer stores of every lane are visible to lane 0
  if (lane == 0) {
    int state = bj;
    int* pb = path + (size_t)b * T;
    pb[T - 1] = state;
    for (int t = T - 1; t >= 1; --t) {
      state = bpb[(size_t)t * S + state];
      pb[t - 1] = state;
    }
  }
}

template <int NQ>
static void launch(int B, int T, int S, int V, const float* log_init, const float* log_trans, const float* log_emit,
                   const int* obs, unsigned char* bp, int* path, cudaStream_t stream) {
  const int blocks = (B + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
  const size_t trans_bytes = sizeof(float) * (size_t)S * S;
  if (trans_bytes <= 40 * 1024)
    viterbi_warp_kernel<NQ, true><<<blocks, WARPS_PER_BLOCK * 32, trans_bytes, stream>>>(
        B, T, S, V, log_init, log_trans, log_emit, obs, bp, path);
  else
    viterbi_warp_kernel<NQ, false><<<blocks, WARPS_PER_BLOCK * 32, 0, stream>>>(B, T, S, V, log_init, log_trans,
                                                                                  log_emit, obs, bp, path);
}

extern "C" void viterbi_batch(int B, int T, int S, int V, const float* log_init, const float* log_trans,
                              const float* log_emit, const int* obs, int* path, cudaStream_t stream) {
  if (B <= 0 || T <= 0 || S <= 0) return;
  unsigned char* bp = nullptr;
  cudaMallocAsync((void**)&bp, (size_t)B * T * S, stream);
  const int nq = (S + 31) / 32;
  if (nq <= 1)
    launch<1>(B, T, S, V, log_init, log_trans, log_emit, obs, bp, path, stream);
  else if (nq == 2)
    launch<2>(B, T, S, V, log_init, log_trans, log_emit, obs, bp, path, stream);
  else if (nq == 3)
    launch<3>(B, T, S, V, log_init, log_trans, log_emit, obs, bp, path, stream);
  else
    launch<4>(B, T, S, V, log_init, log_trans, log_emit, obs, bp, path, stream);
  cudaFreeAsync(bp, stream);
}
