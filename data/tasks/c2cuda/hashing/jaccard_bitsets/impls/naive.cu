// strategy: naive (weak) — one thread per (query, item) pair straight from global memory: every thread re-reads both fingerprints (item words W apart across the warp, uncoalesced), two popcounts per word
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void jaccard_naive_kernel(int nq, int nd, int W, const uint32_t* qbits, const uint32_t* dbits, float* out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y;
  if (j >= nd) return;
  const uint32_t* q = qbits + (long long)i * W;
  const uint32_t* d = dbits + (long long)j * W;
  int a = 0, u = 0;
  for (int w = 0; w < W; ++w) {
    a += __popc(q[w] & d[w]);
    u += __popc(q[w] | d[w]);
  }
  out[(long long)i * nd + j] = u == 0 ? 0.0f : (float)a / (float)u;
}

extern "C" void jaccard_bitsets(int nq, int nd, int W, const uint32_t* qbits, const uint32_t* dbits, float* out,
                                cudaStream_t stream) {
  if (nq <= 0 || nd <= 0) return;
  const int threads = 128;
  const dim3 grid((nd + threads - 1) / threads, nq);
  jaccard_naive_kernel<<<grid, threads, 0, stream>>>(nq, nd, W, qbits, dbits, out);
}
