// strategy: monoid_reduce — each thread summarises a contiguous 256-byte segment (length, newlines, first-line prefix, last-line suffix, longest inner line) read with 16-byte loads; summaries are merged in order with an associative combine (warp shuffles with ascending offsets, then per block), and a second single-block kernel merges the block summaries
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSeg = 256;  // bytes per thread
constexpr int kFinalThreads = 1024;

struct Sum {
  unsigned long long len, nl, pre, suf, best;
};

__device__ __forceinline__ Sum identity() { return Sum{0, 0, 0, 0, 0}; }

// a covers the bytes just before b
__device__ __forceinline__ Sum combine(const Sum& a, const Sum& b) {
  Sum r;
  r.len = a.len + b.len;
  r.nl = a.nl + b.nl;
  r.pre = a.nl ? a.pre : a.len + b.pre;
  r.suf = b.nl ? b.suf : b.len + a.suf;
  r.best = a.best > b.best ? a.best : b.best;
  if (a.nl && b.nl) {
    const unsigned long long mid = a.suf + b.pre;
    if (mid > r.best) r.best = mid;
  }
  return r;
}

__device__ __forceinline__ Sum shfl_down_sum(const Sum& s, int off) {
  Sum r;
  r.len = __shfl_down_sync(0xffffffffu, s.len, off);
  r.nl = __shfl_down_sync(0xffffffffu, s.nl, off);
  r.pre = __shfl_down_sync(0xffffffffu, s.pre, off);
  r.suf = __shfl_down_sync(0xffffffffu, s.suf, off);
  r.best = __shfl_down_sync(0xffffffffu, s.best, off);
  return r;
}

// After this, lane 0 holds the ordered combination of all 32 lanes (ascending offsets keep ranges contiguous).
__device__ __forceinline__ Sum warp_combine(Sum s) {
  const int lane = threadIdx.x & 31;
  for (int off = 1; off < 32; off <<= 1) {
    Sum o = shfl_down_sum(s, off);
    if ((lane & (2 * off - 1)) == 0 && lane + off < 32) s = combine(s, o);
  }
  return s;
}

__device__ __forceinline__ bool wc_is_ws(uint32_t c) { return c == ' ' || (c >= 9 && c <= 13); }

struct SegState {
  Sum s;
  unsigned long long cur, words;
  bool prev_ws;
  __device__ __forceinline__ void feed(uint32_t c) {
    const bool ws = wc_is_ws(c);
    words += (!ws && prev_ws) ? 1ull : 0ull;
    prev_ws = ws;
    if (c == '\n') {
      if (s.nl == 0) s.pre = cur;
      else if (cur > s.best) s.best = cur;
      ++s.nl;
      cur = 0;
    } else {
      ++cur;
    }
  }
};

__global__ void __launch_bounds__(kThreads)
wc_segment_kernel(long long n, const unsigned char* __restrict__ data, Sum* __restrict__ block_sums,
                  unsigned long long* __restrict__ block_words, int vec_ok) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long s0 = t * kSeg;
  SegState st;
  st.s = identity();
  st.cur = 0;
  st.words = 0;
  st.prev_ws = true;
  if (s0 < n) {
    st.prev_ws = (s0 == 0) ? true : wc_is_ws(__ldg(data + s0 - 1));
    const long long e = (s0 + kSeg < n) ? s0 + kSeg : n;
    if (vec_ok && e == s0 + kSeg) {
      const uint4* v = reinterpret_cast<const uint4*>(data + s0);
#pragma unroll 4
      for (int u = 0; u < kSeg / 16; ++u) {
        const uint4 q = __ldg(v + u);
        const uint32_t w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int b = 0; b < 4; ++b) st.feed((w[i] >> (8 * b)) & 0xffu);
      }
    } else {
      for (long long i = s0; i < e; ++i) st.feed(__ldg(data + i));
    }
    st.s.len = (unsigned long long)(e - s0);
    st.s.suf = st.cur;
    if (st.s.nl == 0) st.s.pre = st.s.len;
  }
  Sum ws = warp_combine(st.s);
  unsigned long long words = st.words;
  for (int off = 16; off > 0; off >>= 1) words += __shfl_down_sync(0xffffffffu, words, off);

  __shared__ Sum warp_sums[kThreads / 32];
  __shared__ unsigned long long warp_words[kThreads / 32];
  const int warp = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 0) {
    warp_sums[warp] = ws;
    warp_words[warp] = words;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    Sum acc = warp_sums[0];
    unsigned long long wacc = warp_words[0];
    for (int w = 1; w < kThreads / 32; ++w) {
      acc = combine(acc, warp_sums[w]);
      wacc += warp_words[w];
    }
    block_sums[blockIdx.x] = acc;
    block_words[blockIdx.x] = wacc;
  }
}

__global__ void __launch_bounds__(kFinalThreads)
wc_final_kernel(long long nb, const Sum* __restrict__ block_sums, const unsigned long long* __restrict__ block_words,
                unsigned long long* __restrict__ stats) {
  const long long per = (nb + kFinalThreads - 1) / kFinalThreads;
  const long long b0 = (long long)threadIdx.x * per;
  const long long b1 = (b0 + per < nb) ? b0 + per : nb;
  Sum acc = identity();
  unsigned long long words = 0;
  for (long long b = b0; b < b1; ++b) {
    acc = combine(acc, block_sums[b]);
    words += block_words[b];
  }
  acc = warp_combine(acc);
  for (int off = 16; off > 0; off >>= 1) words += __shfl_down_sync(0xffffffffu, words, off);
  __shared__ Sum warp_sums[kFinalThreads / 32];
  __shared__ unsigned long long warp_words[kFinalThreads / 32];
  const int warp = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 0) {
    warp_sums[warp] = acc;
    warp_words[warp] = words;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    Sum tot = warp_sums[0];
    unsigned long long wtot = warp_words[0];
    for (int w = 1; w < kFinalThreads / 32; ++w) {
      tot = combine(tot, warp_sums[w]);
      wtot += warp_words[w];
    }
    unsigned long long longest = tot.best;
    if (tot.pre > longest) longest = tot.pre;
    if (tot.suf > longest) longest = tot.suf;
    stats[0] = tot.nl;
    stats[1] = wtot;
    stats[2] = longest;
  }
}

}  // namespace

extern "C" void wc_stats(long long n, const unsigned char* data, unsigned long long* stats, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(stats, 0, 3 * sizeof(unsigned long long), stream);
    return;
  }
  const long long per_block = (long long)kThreads * kSeg;
  const long long nb = (n + per_block - 1) / per_block;
  Sum* block_sums = nullptr;
  unsigned long long* block_words = nullptr;
  cudaMallocAsync((void**)&block_sums, (size_t)nb * sizeof(Sum), stream);
  cudaMallocAsync((void**)&block_words, (size_t)nb * sizeof(unsigned long long), stream);
  const int vec_ok = (((uintptr_t)data) & 15) == 0;
  wc_segment_kernel<<<(unsigned int)nb, kThreads, 0, stream>>>(n, data, block_sums, block_words, vec_ok);
  wc_final_kernel<<<1, kFinalThreads, 0, stream>>>(nb, block_sums, block_words, stats);
  cudaFreeAsync(block_sums, stream);
  cudaFreeAsync(block_words, stream);
}
