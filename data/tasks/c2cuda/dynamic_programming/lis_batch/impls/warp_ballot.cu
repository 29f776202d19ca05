// strategy: warp_ballot — one warp per sequence with its patience-sorting tails array in shared memory; the insertion point of each element (the number of tails below it) is counted 32 tails at a time with __ballot_sync + __popc, stopping at the first chunk that is not all-below; elements are loaded 32 at a time (coalesced) and broadcast by __shfl_sync
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void lis_warp_kernel(int B, int L, const int* __restrict__ x, int* __restrict__ lis) {
  extern __shared__ int smem[];
  const int lane = threadIdx.x & 31;
  const int w = threadIdx.x >> 5;
  const int b = blockIdx.x * (blockDim.x >> 5) + w;
  if (b >= B) return;  // uniform per warp, no block barriers
  int* tails = smem + (size_t)w * L;
  const int* s = x + (size_t)b * L;
  int len = 0;
  for (int i0 = 0; i0 < L; i0 += 32) {
    const int mine = i0 + lane < L ? __ldg(s + i0 + lane) : 0;
    const int cnt = L - i0 < 32 ? L - i0 : 32;
    for (int q = 0; q < cnt; ++q) {
      const int v = __shfl_sync(FULL_MASK, mine, q);
      int pos = 0;
      for (int c = 0; c < len; c += 32) {
        const int idx = c + lane;
        const unsigned below = __ballot_sync(FULL_MASK, idx < len && tails[idx] < v);
        pos += __popc(below);
        if (below != FULL_MASK) break;  // tails are strictly increasing: nothing further is below v
      }
      if (lane == 0) tails[pos] = v;
      if (pos == len) ++len;
      __syncwarp();
    }
  }
  if (lane == 0) lis[b] = len;
}

extern "C" void lis_batch(int B, int L, const int* x, int* lis, cudaStream_t stream) {
  if (B <= 0) return;
  const size_t per_warp = sizeof(int) * (size_t)(L > 0 ? L : 1);
  int wpb = 4;
  while (wpb > 1 && per_warp * wpb > 40 * 1024) --wpb;
  const int blocks = (B + wpb - 1) / wpb;
  lis_warp_kernel<<<blocks, wpb * 32, per_warp * wpb, stream>>>(B, L, x, lis);
}
