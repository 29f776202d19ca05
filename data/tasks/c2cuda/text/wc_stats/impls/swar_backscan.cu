// strategy: swar_backscan — grid-stride over 16-byte vectors classified with SIMD-in-a-word byte compares (__vcmpeq4 / __vcmpgeu4) into 16-bit newline and whitespace masks, popcounts for lines and word starts, line lengths from gaps between mask bits; the first newline of a vector finds its predecessor by a vectorised backward scan (the scans cover disjoint gaps, O(n) total); block reductions and one atomicAdd/atomicMax per block
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t byte_mask4(uint32_t v) {  // 0xff-per-byte -> 4 bits
  const uint32_t m = v & 0x80808080u;
  return ((m >> 7) | (m >> 14) | (m >> 21) | (m >> 28)) & 0xfu;
}
__device__ __forceinline__ uint32_t nl_mask4(uint32_t x) { return byte_mask4(__vcmpeq4(x, 0x0a0a0a0au)); }
__device__ __forceinline__ uint32_t ws_mask4(uint32_t x) {
  const uint32_t r = (__vcmpgeu4(x, 0x09090909u) & __vcmpleu4(x, 0x0d0d0d0du)) | __vcmpeq4(x, 0x20202020u);
  return byte_mask4(r);
}
__device__ __forceinline__ bool is_ws(uint32_t c) { return c == ' ' || (c >= 9 && c <= 13); }

// 16 bytes at data + base (base a multiple of 16); bytes at or past n read as 0 and are masked off by the caller.
__device__ __forceinline__ uint4 load16(const unsigned char* __restrict__ data, long long base, long long n,
                                        int vec_ok) {
  if (vec_ok && base + 16 <= n) return __ldg(reinterpret_cast<const uint4*>(data + base));
  uint32_t w[4] = {0u, 0u, 0u, 0u};
  for (int b = 0; b < 16; ++b)
    if (base + b < n) w[b >> 2] |= (uint32_t)__ldg(data + base + b) << (8 * (b & 3));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ __forceinline__ void masks16(uint4 q, uint32_t& nl, uint32_t& ws) {
  nl = nl_mask4(q.x) | (nl_mask4(q.y) << 4) | (nl_mask4(q.z) << 8) | (nl_mask4(q.w) << 12);
  ws = ws_mask4(q.x) | (ws_mask4(q.y) << 4) | (ws_mask4(q.z) << 8) | (ws_mask4(q.w) << 12);
}

// Position of the last '\n' strictly before p, or -1.
__device__ long long prev_newline(const unsigned char* __restrict__ data, long long p, long long n, int vec_ok) {
  long long q = p - 1;
  while (q >= 0 && (q & 15) != 15) {
    if (__ldg(data + q) == '\n') return q;
    --q;
  }
  while (q >= 0) {  // q == 16k + 15: the whole vector [q-15, q] precedes p
    uint32_t nl, ws;
    masks16(load16(data, q - 15, n, vec_ok), nl, ws);
    if (nl) return (q - 15) + (31 - __clz(nl));
    q -= 16;
  }
  return -1;
}

__global__ void __launch_bounds__(kThreads)
wc_swar_kernel(long long n, long long nvec, const unsigned char* __restrict__ data, unsigned long long* stats,
               int vec_ok) {
  unsigned long long lines = 0, words = 0, best = 0;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < nvec; v += stride) {
    const long long base = v * 16;
    const long long cnt = (n - base < 16) ? n - base : 16;
    const uint32_t valid = (cnt == 16) ? 0xffffu : ((1u << cnt) - 1u);
    uint32_t nl, ws;
    masks16(load16(data, base, n, vec_ok), nl, ws);
    nl &= valid;
    ws &= valid;
    const uint32_t prev_ws = (base == 0) ? 1u : (is_ws(__ldg(data + base - 1)) ? 1u : 0u);
    const uint32_t nonws = ~ws & valid;
    const uint32_t shifted_ws = ((ws << 1) | prev_ws) & 0xffffu;  // bit i: byte i-1 is whitespace
    words += __popc(nonws & shifted_ws);
    lines += __popc(nl);
    if (nl) {
      int pos = __ffs(nl) - 1;
      long long prev = prev_newline(data, base + pos, n, vec_ok);
      unsigned long long len = (unsigned long long)(base + pos - prev - 1);
      if (len > best) best = len;
      uint32_t rest = nl & ~(1u << pos);
      while (rest) {
        const int nxt = __ffs(rest) - 1;
        len = (unsigned long long)(nxt - pos - 1);
        if (len > best) best = len;
        pos = nxt;
        rest &= rest - 1;
      }
    }
    if (v == nvec - 1) {  // the last line ends at n
      const long long prev = prev_newline(data, n, n, vec_ok);
      const unsigned long long len = (unsigned long long)(n - prev - 1);
      if (len > best) best = len;
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    lines += __shfl_down_sync(0xffffffffu, lines, off);
    words += __shfl_down_sync(0xffffffffu, words, off);
    const unsigned long long ob = __shfl_down_sync(0xffffffffu, best, off);
    if (ob > best) best = ob;
  }
  __shared__ unsigned long long sl[kThreads / 32], sw[kThreads / 32], sb[kThreads / 32];
  const int warp = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 0) {
    sl[warp] = lines;
    sw[warp] = words;
    sb[warp] = best;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long L = 0, W = 0, B = 0;
    for (int w = 0; w < kThreads / 32; ++w) {
      L += sl[w];
      W += sw[w];
      if (sb[w] > B) B = sb[w];
    }
    if (L) atomicAdd(&stats[0], L);
    if (W) atomicAdd(&stats[1], W);
    if (B) atomicMax(&stats[2], B);
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

extern "C" void wc_stats(long long n, const unsigned char* data, unsigned long long* stats, cudaStream_t stream) {
  cudaMemsetAsync(stats, 0, 3 * sizeof(unsigned long long), stream);
  if (n <= 0) return;
  const long long nvec = (n + 15) / 16;
  long long blocks = (nvec + kThreads - 1) / kThreads;
  const long long max_blocks = 16LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  const int vec_ok = (((uintptr_t)data) & 15) == 0;
  wc_swar_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, nvec, data, stats, vec_ok);
}
