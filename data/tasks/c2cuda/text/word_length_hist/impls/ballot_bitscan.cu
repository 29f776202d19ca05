// strategy: ballot_bitscan — one warp per 8192-byte segment (grid-stride) reads 128 bytes per step as one 32-bit word per lane (the next step's word prefetched), four __ballot_sync votes plus a bit-interleave rebuild the step's 128-bit whitespace mask in every lane; a word start's capped length is the first set bit (__ffsll) of the 64 whitespace bits that follow it, counts go to per-warp shared sub-histograms flushed once per block
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kSeg = 8192;
constexpr int kSteps = kSeg / 128;

__device__ __forceinline__ bool is_ws(unsigned int c) { return c == ' ' || (c >= 9 && c <= 13); }

// 4 whitespace bits for bytes [g, g+4); bytes at or past n count as whitespace
__device__ __forceinline__ unsigned int ws_nibble(long long n, const unsigned char* __restrict__ text, long long g,
                                                  int word_ok) {
  unsigned int bytes = 0x20202020u;
  if (word_ok && g + 4 <= n) {
    bytes = __ldg(reinterpret_cast<const unsigned int*>(text + g));
  } else {
    for (int b = 0; b < 4; ++b)
      if (g + b < n) bytes = (bytes & ~(0xffu << (8 * b))) | ((unsigned int)__ldg(text + g + b) << (8 * b));
  }
  unsigned int nib = 0;
#pragma unroll
  for (int b = 0; b < 4; ++b) nib |= (is_ws((bytes >> (8 * b)) & 0xffu) ? 1u : 0u) << b;
  return nib;
}

// bit i of x (8 bits) -> bit 4i
__device__ __forceinline__ unsigned int spread4(unsigned int x) {
  x &= 0xffu;
  x = (x | (x << 12)) & 0x000f000fu;
  x = (x | (x << 6)) & 0x03030303u;
  x = (x | (x << 3)) & 0x11111111u;
  return x;
}

// the step's 128-bit mask: word j bit k = whitespace bit of byte 32j + k (lane l holds bytes 4l..4l+3)
__device__ __forceinline__ void step_mask(unsigned int nib, unsigned int* w) {
  const unsigned int b0 = __ballot_sync(0xffffffffu, nib & 1u);
  const unsigned int b1 = __ballot_sync(0xffffffffu, nib & 2u);
  const unsigned int b2 = __ballot_sync(0xffffffffu, nib & 4u);
  const unsigned int b3 = __ballot_sync(0xffffffffu, nib & 8u);
#pragma unroll
  for (int j = 0; j < 4; ++j)
    w[j] = spread4(b0 >> (8 * j)) | (spread4(b1 >> (8 * j)) << 1) | (spread4(b2 >> (8 * j)) << 2) |
           (spread4(b3 >> (8 * j)) << 3);
}

__device__ __forceinline__ unsigned int pick(const unsigned int* a, const unsigned int* b, int i) {  // (a ++ b)[i], i < 8
  unsigned int r = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    r = (i == k) ? a[k] : r;
    r = (i == k + 4) ? b[k] : r;
  }
  return r;
}

__global__ void __launch_bounds__(kThreads)
word_len_ballot_kernel(long long n, const unsigned char* __restrict__ text, unsigned int* __restrict__ hist,
                       long long nsegs, int word_ok) {
  __shared__ unsigned int sub[kWarps][64];
  for (int b = threadIdx.x; b < kWarps * 64; b += blockDim.x) sub[b / 64][b % 64] = 0u;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  const int j = lane >> 3;          // mask word holding this lane's bytes
  const int o0 = (4 * lane) & 31;   // bit of the lane's first byte in that word
  unsigned int* mine = sub[threadIdx.x >> 5];
  const long long warps_total = (long long)gridDim.x * kWarps;
  for (long long seg = (long long)blockIdx.x * kWarps + (threadIdx.x >> 5); seg < nsegs; seg += warps_total) {
    const long long base = seg * kSeg;
    unsigned int prev_top = (base == 0 || is_ws(__ldg(text + base - 1))) ? 1u : 0u;  // byte before the segment
    unsigned int cur_nib = ws_nibble(n, text, base + 4 * lane, word_ok);
    unsigned int nxt_nib = ws_nibble(n, text, base + 128 + 4 * lane, word_ok);
    unsigned int cur[4], nxt[4];
    step_mask(cur_nib, cur);
    step_mask(nxt_nib, nxt);
    for (int s = 0; s < kSteps; ++s) {
      const long long p = base + 128LL * s;
      if (p >= n) break;  // warp-uniform
      const unsigned int nib2 = ws_nibble(n, text, p + 256 + 4 * lane, word_ok);  // prefetch two steps ahead
      const unsigned int up = __shfl_up_sync(0xffffffffu, cur_nib, 1);
      const unsigned int prev_bit = (lane == 0) ? prev_top : ((up >> 3) & 1u);
      const unsigned int starts = ~cur_nib & ((cur_nib << 1) | prev_bit) & 0xfu;
      if (starts) {
        const unsigned long long w0 = pick(cur, nxt, j), w1 = pick(cur, nxt, j + 1), w2 = pick(cur, nxt, j + 2);
        const unsigned long long lo = w0 | (w1 << 32);
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          if (!((starts >> b) & 1u)) continue;
          const int o = o0 + b;  // 0..31
          const unsigned long long x = (lo >> o) | (o ? (w2 << (64 - o)) : 0ull);  // ws bits of the next 64 bytes
          const int len = x ? (__ffsll((long long)x) - 1) : 64;
          atomicAdd(&mine[len - 1], 1u);
        }
      }
      prev_top = cur[3] >> 31;
      cur_nib = nxt_nib;
#pragma unroll
      for (int k = 0; k < 4; ++k) cur[k] = nxt[k];
      nxt_nib = nib2;
      step_mask(nib2, nxt);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x) {
    unsigned int v = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) v += sub[w][b];
    if (v) atomicAdd(&hist[b], v);
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void word_length_hist(long long n, const unsigned char* text, unsigned int* hist, cudaStream_t stream) {
  cudaMemsetAsync(hist, 0, 64 * sizeof(unsigned int), stream);
  if (n <= 0) return;
  const long long nsegs = (n + kSeg - 1) / kSeg;
  long long blocks = (nsegs + kWarps - 1) / kWarps;
  if (blocks > 8LL * sm_count()) blocks = 8LL * sm_count();
  const int word_ok = (((uintptr_t)text) & 3) == 0;
  word_len_ballot_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, text, hist, nsegs, word_ok);
}
