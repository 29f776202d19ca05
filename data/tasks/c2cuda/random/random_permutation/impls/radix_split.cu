// strategy: radix_split — LSD radix sort of the indices by their 32-bit key, 16 stable passes of 2-bit digits; keys are recomputed from the index (never stored), per-tile digit counts are packed as four 16-bit fields of one u64 so a single warp-shuffle block scan ranks all four digits at once; digit-major scan of tile counts gives stable scatter offsets
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;  // 4096 elements per tile, so every 16-bit field stays < 65536
constexpr int kWarps = kThreads / 32;
typedef unsigned long long u64;

__device__ __forceinline__ uint32_t perm_key(uint32_t i, uint32_t s0, uint32_t s1) {
  uint32_t h = (i * 0x9E3779B1u + s0) ^ s1;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

// exclusive block-wide scan of one u64 per thread; *total gets the block sum (all threads must call)
__device__ __forceinline__ u64 block_exclusive_scan(u64 v, u64* warp_sums, u64* total) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  u64 inc = v;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const u64 t = __shfl_up_sync(0xffffffffu, inc, off);
    if (lane >= off) inc += t;
  }
  if (lane == 31) warp_sums[wid] = inc;
  __syncthreads();
  if (wid == 0) {
    u64 ws = lane < kWarps ? warp_sums[lane] : 0ull;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      const u64 t = __shfl_up_sync(0xffffffffu, ws, off);
      if (lane >= off) ws += t;
    }
    if (lane < kWarps) warp_sums[lane] = ws;
  }
  __syncthreads();
  const u64 warp_off = wid ? warp_sums[wid - 1] : 0ull;
  *total = warp_sums[kWarps - 1];
  __syncthreads();
  return warp_off + inc - v;
}

// src == nullptr: the identity (first pass)
__device__ __forceinline__ uint32_t load_idx(const int* src, long long i) {
  return src ? (uint32_t)__ldg(src + i) : (uint32_t)i;
}

__global__ void __launch_bounds__(kThreads)
digit_count_kernel(int n, int shift, uint32_t s0, uint32_t s1, const int* __restrict__ src, int tiles,
                   unsigned int* __restrict__ counts) {
  __shared__ u64 warp_sums[kWarps];
  const long long base = (long long)blockIdx.x * kTile;
  u64 p = 0;
#pragma unroll 4
  for (int k = 0; k < kItems; ++k) {
    const long long i = base + (long long)k * kThreads + threadIdx.x;  // coalesced; order is irrelevant for counts
    if (i < n) p += 1ull << (16 * ((perm_key(load_idx(src, i), s0, s1) >> shift) & 3u));
  }
  u64 tot = 0;
  block_exclusive_scan(p, warp_sums, &tot);
  if (threadIdx.x < 4) counts[threadIdx.x * tiles + blockIdx.x] = (unsigned int)((tot >> (16 * threadIdx.x)) & 0xFFFFu);
}

// one block: exclusive scan of the digit-major counts (len entries) in place
__global__ void __launch_bounds__(kThreads) offsets_kernel(int len, unsigned int* __restrict__ counts) {
  __shared__ u64 warp_sums[kWarps];
  u64 carry = 0;
  for (int base = 0; base < len; base += kTile) {
    const int b = base + threadIdx.x * kItems;
    unsigned int v[kItems];
    u64 s = 0;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      v[k] = (b + k < len) ? counts[b + k] : 0u;
      s += v[k];
    }
    u64 tot = 0;
    u64 run = carry + block_exclusive_scan(s, warp_sums, &tot);
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      if (b + k < len) counts[b + k] = (unsigned int)run;
      run += v[k];
    }
    carry += tot;
  }
}

__global__ void __launch_bounds__(kThreads)
scatter_kernel(int n, int shift, uint32_t s0, uint32_t s1, const int* __restrict__ src, int tiles,
               const unsigned int* __restrict__ offsets, int* __restrict__ dst) {
  __shared__ u64 warp_sums[kWarps];
  __shared__ unsigned int tile_off[4];
  if (threadIdx.x < 4) tile_off[threadIdx.x] = offsets[threadIdx.x * tiles + blockIdx.x];
  const long long base = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kItems;  // 16 consecutive items
  uint32_t idx[kItems];
  u64 p = 0;
  unsigned int digits = 0;  // 2 bits per item
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const long long i = base + k;
    idx[k] = 0u;
    if (i < n) {
      idx[k] = load_idx(src, i);
      const unsigned int d = (perm_key(idx[k], s0, s1) >> shift) & 3u;
      digits |= d << (2 * k);
      p += 1ull << (16 * d);
    }
  }
  u64 tot = 0;
  u64 r = block_exclusive_scan(p, warp_sums, &tot);  // its barriers also publish tile_off
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    if (base + k < n) {
      const unsigned int d = (digits >> (2 * k)) & 3u;
      const unsigned int pos = tile_off[d] + (unsigned int)((r >> (16 * d)) & 0xFFFFu);
      r += 1ull << (16 * d);
      dst[pos] = (int)idx[k];
    }
  }
}

}  // namespace

extern "C" void random_permutation(int n, unsigned long long seed, int* perm, cudaStream_t stream) {
  if (n <= 0) return;
  const uint32_t s0 = (uint32_t)seed, s1 = (uint32_t)(seed >> 32);
  const int tiles = (int)(((long long)n + kTile - 1) / kTile);
  int* tmp = nullptr;
  unsigned int* counts = nullptr;
  cudaMallocAsync((void**)&tmp, sizeof(int) * (size_t)n, stream);
  cudaMallocAsync((void**)&counts, sizeof(unsigned int) * 4 * (size_t)tiles, stream);
  for (int pass = 0; pass < 16; ++pass) {
    const int* src = pass == 0 ? nullptr : ((pass & 1) ? tmp : perm);
    int* dst = (pass & 1) ? perm : tmp;  // pass 15 (odd) lands in perm
    const int shift = 2 * pass;
    digit_count_kernel<<<tiles, kThreads, 0, stream>>>(n, shift, s0, s1, src, tiles, counts);
    offsets_kernel<<<1, kThreads, 0, stream>>>(4 * tiles, counts);
    scatter_kernel<<<tiles, kThreads, 0, stream>>>(n, shift, s0, s1, src, tiles, counts, dst);
  }
  cudaFreeAsync(counts, stream);
  cudaFreeAsync(tmp, stream);
}
