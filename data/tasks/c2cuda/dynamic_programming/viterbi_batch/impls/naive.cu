// strategy: naive (weak) — one thread per sequence runs the whole recursion alone: delta rows and int backpointers in global scratch laid out sequence-major (uncoalesced), transition matrix re-read from global for every cell
#include <cuda_runtime.h>

__global__ void viterbi_naive_kernel(int B, int T, int S, int V, const float* log_init, const float* log_trans,
                                     const float* log_emit, const int* obs, float* dscratch, int* bp, int* path) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  float* delta = dscratch + (size_t)b * 2 * S;
  float* next = delta + S;
  int* bpb = bp + (size_t)b * T * S;
  const int* o = obs + (size_t)b * T;
  for (int j = 0; j < S; ++j) delta[j] = log_init[j] + log_emit[(size_t)j * V + o[0]];
  for (int t = 1; t < T; ++t) {
    for (int j = 0; j < S; ++j) {
      float best = delta[0] + log_trans[j];
      int arg = 0;
      for (int i = 1; i < S; ++i) {
        float v = delta[i] + log_trans[(size_t)i * S + j];
        if (v > best) {
          best = v;
          arg = i;
        }
      }
      next[j] = best + log_emit[(size_t)j * V + o[t]];
      bpb[(size_t)t * S + j] = arg;
    }
    float* tmp = delta;
    delta = next;
    next = tmp;
  }
  int state = 0;
  for (int j = 1; j < S; ++j)
    if (delta[j] > delta[state]) state = j;
  int* pb = path + (size_t)b * T;
  pb[T - 1] = state;
  for (int t = T - 1; t >= 1; --t) {
    state = bpb[(size_t)t * S + state];
    pb[t - 1] = state;
  }
}

extern "C" void viterbi_batch(int B, int T, int S, int V, const float* log_init, const float* log_trans,
                              const float* log_emit, const int* obs, int* path, cudaStream_t stream) {
  if (B <= 0 || T <= 0) return;
  float* dscratch = nullptr;
  int* bp = nullptr;
  cudaMallocAsync((void**)&dscratch, sizeof(float) * (size_t)B * 2 * S, stream);
  cudaMallocAsync((void**)&bp, sizeof(int) * (size_t)B * T * S, stream);
  const int threads = 64;
  viterbi_naive_kernel<<<(B + threads - 1) / threads, threads, 0, stream>>>(B, T, S, V, log_init, log_trans, log_emit,
                                                                            obs, dscratch, bp, path);
  cudaFreeAsync(bp, stream);
  cudaFreeAsync(dscratch, stream);
}
