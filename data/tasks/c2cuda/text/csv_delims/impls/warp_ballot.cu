// strategy: warp_ballot — one warp per 4096-byte segment reads 128 bytes per step (a 32-bit word per lane, next word prefetched) and rebuilds 128-bit quote / delimiter masks in every lane from __ballot_sync votes and a bit interleave; the quote state inside a step is a prefix-XOR of the quote mask (shift-xor ladder, parity carried across words), delimiters are counted and ranked with __popc; the segment summaries are scanned by one block with a shared-memory Hillis-Steele scan carried over chunks, and a second warp pass writes positions at popcount ranks
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSeg = 4096;           // bytes per warp
constexpr int kSteps = kSeg / 128;
constexpr int kScanThreads = 1024;
constexpr int kScanPer = 4;          // summaries per scan thread and chunk

struct Seg {
  int q, c0, ca;  // quote parity, delimiters if starting outside, candidates
};

__device__ __forceinline__ Seg seg_cat(const Seg& a, const Seg& b) {
  return Seg{a.q ^ b.q, a.c0 + (a.q ? b.ca - b.c0 : b.c0), a.ca + b.ca};
}

// bit i of the result: xor of bits 0..i-1 of q (parity of the quotes strictly before byte i of the word)
__device__ __forceinline__ unsigned int prefix_xor_excl(unsigned int q) {
  unsigned int x = q;
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  return x << 1;
}

// 4 bytes [g, g+4) as one word, bytes at or past n read as 0
__device__ __forceinline__ unsigned int load_word(int n, const unsigned char* __restrict__ data, long long g,
                                                  int word_ok) {
  if (word_ok && g + 4 <= n) return __ldg(reinterpret_cast<const unsigned int*>(data + g));
  unsigned int v = 0u;
  for (int b = 0; b < 4; ++b)
    if (g + b < n) v |= (unsigned int)__ldg(data + g + b) << (8 * b);
  return v;
}

// bit i of x (8 bits) -> bit 4i
__device__ __forceinline__ unsigned int spread4(unsigned int x) {
  x &= 0xffu;
  x = (x | (x << 12)) & 0x000f000fu;
  x = (x | (x << 6)) & 0x03030303u;
  x = (x | (x << 3)) & 0x11111111u;
  return x;
}

// 128-bit mask of a 128-byte step from per-lane nibbles (lane l: bytes 4l..4l+3): word j bit k = byte 32j + k
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

__device__ __forceinline__ void nibbles(unsigned int v, unsigned int& qn, unsigned int& dn) {
  qn = 0u;
  dn = 0u;
#pragma unroll
  for (int b = 0; b < 4; ++b) {
    const unsigned int c = (v >> (8 * b)) & 0xffu;
    qn |= (c == '"' ? 1u : 0u) << b;
    dn |= (c == ',' || c == '\n' ? 1u : 0u) << b;
  }
}

// delimiters outside quotes in a 128-byte step whose first byte is in state s; s advances past the step
__device__ __forceinline__ void step_delims(unsigned int v, int& s, unsigned int* M, unsigned int* D) {
  unsigned int qn, dn, Q[4];
  nibbles(v, qn, dn);
  step_mask(qn, Q);
  step_mask(dn, D);
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const unsigned int ins = prefix_xor_excl(Q[j]) ^ (s ? 0xffffffffu : 0u);
    M[j] = D[j] & ~ins;
    s ^= __popc(Q[j]) & 1;
  }
}

__global__ void __launch_bounds__(kThreads)
csv_seg_summary(int n, const unsigned char* __restrict__ data, Seg* __restrict__ segs, int nsegs, int word_ok) {
  const int seg = (int)(((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int lane = threadIdx.x & 31;
  if (seg >= nsegs) return;  // whole warp
  const long long base = (long long)seg * kSeg;
  int s = 0, c0 = 0, ca = 0;
  unsigned int v = load_word(n, data, base + 4 * lane, word_ok);
  for (int st = 0; st < kSteps; ++st) {
    const unsigned int vn = load_word(n, data, base + 128LL * (st + 1) + 4 * lane, word_ok);  // prefetch
    unsigned int M[4], D[4];
    step_delims(v, s, M, D);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      c0 += __popc(M[j]);
      ca += __popc(D[j]);
    }
    v = vn;
  }
  if (lane == 0) segs[seg] = Seg{s, c0, ca};
}

// one block: start[i] = (quote state, first output slot) of segment i; count[0] = total
__global__ void __launch_bounds__(kScanThreads)
csv_seg_scan(int nsegs, const Seg* __restrict__ segs, int2* __restrict__ start, int* __restrict__ count) {
  __shared__ Seg sh[kScanThreads];
  Seg carry{0, 0, 0};
  const int t = threadIdx.x;
  for (int cbase = 0; cbase < nsegs; cbase += kScanThreads * kScanPer) {
    Seg loc[kScanPer];
    Seg tot{0, 0, 0};
#pragma unroll
    for (int j = 0; j < kScanPer; ++j) {
      const int i = cbase + t * kScanPer + j;
      loc[j] = (i < nsegs) ? segs[i] : Seg{0, 0, 0};
      tot = seg_cat(tot, loc[j]);
    }
    sh[t] = tot;
    for (int off = 1; off < kScanThreads; off <<= 1) {
      __syncthreads();
      const Seg prev = (t >= off) ? sh[t - off] : Seg{0, 0, 0};
      __syncthreads();
      if (t >= off) sh[t] = seg_cat(prev, sh[t]);
    }
    __syncthreads();
    Seg run = seg_cat(carry, (t > 0) ? sh[t - 1] : Seg{0, 0, 0});
#pragma unroll
    for (int j = 0; j < kScanPer; ++j) {
      const int i = cbase + t * kScanPer + j;
      if (i < nsegs) start[i] = make_int2(run.q, run.c0);
      run = seg_cat(run, loc[j]);
    }
    carry = seg_cat(carry, sh[kScanThreads - 1]);
    __syncthreads();  // sh is rewritten by the next chunk
  }
  if (t == 0) count[0] = carry.c0;
}

__global__ void __launch_bounds__(kThreads)
csv_seg_emit(int n, const unsigned char* __restrict__ data, const int2* __restrict__ start, int* __restrict__ pos,
             int nsegs, int word_ok) {
  const int seg = (int)(((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int lane = threadIdx.x & 31;
  if (seg >= nsegs) return;
  const long long base = (long long)seg * kSeg;
  const int2 st0 = start[seg];
  int s = st0.x, off = st0.y;
  const int j = lane >> 3, o0 = (4 * lane) & 31;  // this lane's bytes: word j, bits o0..o0+3
  unsigned int v = load_word(n, data, base + 4 * lane, word_ok);
  for (int st = 0; st < kSteps; ++st) {
    const unsigned int vn = load_word(n, data, base + 128LL * (st + 1) + 4 * lane, word_ok);  // prefetch
    unsigned int M[4], D[4];
    step_delims(v, s, M, D);
    int before = 0, total = 0;
    unsigned int mw = 0u;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int c = __popc(M[k]);
      before += (k < j) ? c : 0;
      mw = (k == j) ? M[k] : mw;
      total += c;
    }
    const unsigned int mine = (mw >> o0) & 0xfu;
    int rank = off + before + __popc(mw & ((1u << o0) - 1u));
    const long long g = base + 128LL * st + 4 * lane;
#pragma unroll
    for (int b = 0; b < 4; ++b)
      if ((mine >> b) & 1u) pos[rank++] = (int)(g + b);
    off += total;
    v = vn;
  }
}

__global__ void csv_pad(int n, const int* __restrict__ count, int* __restrict__ pos) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i >= (long long)__ldg(count)) pos[i] = -1;
}

}  // namespace

extern "C" void csv_delims(int n, const unsigned char* data, int* count, int* pos, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(count, 0, sizeof(int), stream);
    return;
  }
  const int nsegs = (int)(((long long)n + kSeg - 1) / kSeg);
  Seg* segs = nullptr;
  int2* start = nullptr;
  cudaMallocAsync((void**)&segs, (size_t)nsegs * sizeof(Seg), stream);
  cudaMallocAsync((void**)&start, (size_t)nsegs * sizeof(int2), stream);
  const int word_ok = (((uintptr_t)data) & 3) == 0;
  const long long warp_threads = (long long)nsegs * 32;
  const unsigned int blocks = (unsigned int)((warp_threads + kThreads - 1) / kThreads);
  csv_seg_summary<<<blocks, kThreads, 0, stream>>>(n, data, segs, nsegs, word_ok);
  csv_seg_scan<<<1, kScanThreads, 0, stream>>>(nsegs, segs, start, count);
  csv_seg_emit<<<blocks, kThreads, 0, stream>>>(n, data, start, pos, nsegs, word_ok);
  csv_pad<<<(unsigned int)(((long long)n + 255) / 256), 256, 0, stream>>>(n, count, pos);
  cudaFreeAsync(segs, stream);
  cudaFreeAsync(start, stream);
}
