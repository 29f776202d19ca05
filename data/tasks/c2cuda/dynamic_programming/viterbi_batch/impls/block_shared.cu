// strategy: block_shared — one block per sequence, one thread per state; the transition matrix (when it fits) and the delta row are staged in shared memory (delta[i] is a broadcast read, trans row i is conflict-free), byte backpointers are stored coalesced and thread 0 backtracks
#include <cuda_runtime.h>

template <bool SMEM_TRANS>
__global__ void viterbi_block_kernel(int T, int S, int V, const float* __restrict__ log_init,
                                     const float* __restrict__ log_trans, const float* __restrict__ log_emit,
                                     const int* __restrict__ obs, unsigned char* __restrict__ bp, int* __restrict__ path) {
  extern __shared__ float sm[];
  float* strans = sm;
  float* d0 = sm + (SMEM_TRANS ? S * S : 0);
  float* d1 = d0 + S;
  const int b = blockIdx.x;
  const int j = threadIdx.x;
  if (SMEM_TRANS)
    for (int idx = threadIdx.x; idx < S * S; idx += blockDim.x) strans[idx] = log_trans[idx];
  const int* o = obs + (size_t)b * T;
  unsigned char* bpb = bp + (size_t)b * T * S;
  if (j < S) d0[j] = log_init[j] + log_emit[(size_t)j * V + o[0]];
  __syncthreads();
  for (int t = 1; t < T; ++t) {
    const int ot = o[t];
    if (j < S) {
      float best = d0[0] + (SMEM_TRANS ? strans[j] : __ldg(log_trans + j));
      int arg = 0;
      for (int i = 1; i < S; ++i) {
        float v = d0[i] + (SMEM_TRANS ? strans[i * S + j] : __ldg(log_trans + (size_t)i * S + j));
        if (v > best) {
          best = v;
          arg = i;
        }
      }
      d1[j] = best + __ldg(log_emit + (size_t)j * V + ot);
      bpb[(size_t)t * S + j] = (unsigned char)arg;
    }
    __syncthreads();
    float* tmp = d0;
    d0 = d1;
    d1 = tmp;
  }
  if (threadIdx.x == 0) {
    int state = 0;
    for (int k = 1; k < S; ++k)
      if (d0[k] > d0[state]) state = k;
    int* pb = path + (size_t)b * T;
    pb[T - 1] = state;
    for (int t = T - 1; t >= 1; --t) {
      state = bpb[(size_t)t * S + state];
      pb[t - 1] = state;
    }
  }
}

extern "C" void viterbi_batch(int B, int T, int S, int V, const float* log_init, const float* log_trans,
                              const float* log_emit, const int* obs, int* path, cudaStream_t stream) {
  if (B <= 0 || T <= 0 || S <= 0) return;
  unsigned char* bp = nullptr;
  cudaMallocAsync((void**)&bp, (size_t)B * T * S, stream);
  const int threads = ((S + 31) / 32) * 32;
  const size_t trans_bytes = sizeof(float) * (size_t)S * S;
  const size_t delta_bytes = sizeof(float) * 2 * (size_t)S;
  if (trans_bytes + delta_bytes <= 40 * 1024) {
    viterbi_block_kernel<true><<<B, threads, trans_bytes + delta_bytes, stream>>>(T, S, V, log_init, log_trans,
                                                                                   log_emit, obs, bp, path);
  } else {
    viterbi_block_kernel<false><<<B, threads, delta_bytes, stream>>>(T, S, V, log_init, log_trans, log_emit, obs,
                                                                      bp, path);
  }
  cudaFreeAsync(bp, stream);
}
