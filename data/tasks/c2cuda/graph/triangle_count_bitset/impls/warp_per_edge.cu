// strategy: warp_per_edge — one block per vertex i with row i staged in shared memory; warps ballot 32 candidate j at a time from the shared row, then all 32 lanes stream row j with coalesced loads, AND it with the shared row, popcount; per-lane counts are reduced by warp shuffles and a shared-memory block reduction, one plain store per vertex (no atomics)
#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__global__ void __launch_bounds__(kThreads)
tri_row_kernel(int n, int W, const unsigned int* __restrict__ adj, int* __restrict__ tri) {
  extern __shared__ unsigned int srow[];  // W words of row i
  __shared__ int wsum[kWarps];
  const int i = blockIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned int tail = (n & 31) ? ((1u << (n & 31)) - 1u) : 0xFFFFFFFFu;
  const unsigned int* ri = adj + (size_t)i * W;
  for (int w = threadIdx.x; w < W; w += kThreads) {
    unsigned int v = __ldg(ri + w);
    if (w == W - 1) v &= tail;  // bits >= n never count, as k or as j
    srow[w] = v;
  }
  __syncthreads();
  int count = 0;
  // candidate j in 32-wide chunks: chunk c covers j = 32c .. 32c+31 = the bits of word c
  for (int c = ((i + 1) >> 5) + warp; c < W; c += kWarps) {
    unsigned int cand = srow[c];
    const int jlo = c << 5;
    if (jlo <= i) cand &= (unsigned int)(0xFFFFFFFFull << (i - jlo + 1));  // only j > i
    while (cand) {  // warp-uniform: every lane holds the same mask
      const int b = __ffs(cand) - 1;
      cand &= cand - 1;
      const int j = jlo + b;
      const unsigned int* rj = adj + (size_t)j * W;
      const unsigned int first = (unsigned int)(0xFFFFFFFFull << (b + 1));  // k > j within word c
      for (int w = c + lane; w < W; w += 32) {
        unsigned int m = srow[w] & __ldg(rj + w);
        if (w == c) m &= first;
        count += __popc(m);
      }
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) count += __shfl_xor_sync(0xffffffffu, count, off);
  if (lane == 0) wsum[warp] = count;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
#pragma unroll
    for (int k = 0; k < kWarps; ++k) s += wsum[k];
    tri[i] = s;
  }
}
}  // namespace

extern "C" void triangle_count_bitset(int n, const unsigned int* adj, int* tri, cudaStream_t stream) {
  if (n <= 0) return;
  const int W = (n + 31) / 32;
  tri_row_kernel<<<n, kThreads, (size_t)W * sizeof(unsigned int), stream>>>(n, W, adj, tri);
}
