// strategy: hierarchical_search — same work-efficient three-phase scan, but each draw first binary-searches the small L2-resident table of tile-end CDF values (n/1024 entries) and then only the 1024-entry window of its tile, so the deep search levels stay inside a few cache lines
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;  // weights per tile
constexpr int kWarps = kThreads / 32;
typedef unsigned long long u64;

// exclusive block-wide scan of one value per thread; *total gets the block sum.
// Must be called by all threads of the block.
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
    if (lane < kWarps) warp_sums[lane] = ws;  // inclusive warp prefix
  }
  __syncthreads();
  const u64 warp_off = wid ? warp_sums[wid - 1] : 0ull;
  *total = warp_sums[kWarps - 1];
  __syncthreads();  // warp_sums may be reused by the caller's next scan
  return warp_off + inc - v;
}

// phase 1: sum of each tile (coalesced loads)
__global__ void __launch_bounds__(kThreads) tile_sum_kernel(int n, const uint32_t* __restrict__ w, u64* __restrict__ tile_sum) {
  __shared__ u64 red[kThreads];
  const long long base = (long long)blockIdx.x * kTile;
  u64 s = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const long long i = base + k * kThreads + threadIdx.x;
    if (i < n) s += __ldg(w + i);
  }
  red[threadIdx.x] = s;
  __syncthreads();
  for (int h = kThreads / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) red[threadIdx.x] += red[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) tile_sum[blockIdx.x] = red[0];
}

// phase 2: one block scans the tile sums; tile_off[b] = exclusive, tile_inc[b] = inclusive, *total = grand total
__global__ void __launch_bounds__(kThreads) tile_offsets_kernel(int tiles, const u64* __restrict__ tile_sum,
                                                              u64* __restrict__ tile_off, u64* __restrict__ tile_inc,
                                                              u64* __restrict__ total) {
  __shared__ u64 warp_sums[kWarps];
  u64 carry = 0;
  for (int base = 0; base < tiles; base += kThreads) {
    const int b = base + threadIdx.x;
    const u64 v = b < tiles ? tile_sum[b] : 0ull;
    u64 chunk = 0;
    const u64 ex = block_exclusive_scan(v, warp_sums, &chunk);
    if (b < tiles) {
      tile_off[b] = carry + ex;
      tile_inc[b] = carry + ex + v;
    }
    carry += chunk;
  }
  if (threadIdx.x == 0) *total = carry;
}

// phase 3: each tile rescans its weights (4 consecutive per thread) and writes the inclusive CDF
__global__ void __launch_bounds__(kThreads) tile_cdf_kernel(int n, const uint32_t* __restrict__ w,
                                                          const u64* __restrict__ tile_off, u64* __restrict__ cdf) {
  __shared__ u64 warp_sums[kWarps];
  const long long base = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kItems;
  uint32_t v[kItems];
  u64 s = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    v[k] = (base + k < n) ? __ldg(w + base + k) : 0u;
    s += v[k];
  }
  u64 tot = 0;
  u64 run = tile_off[blockIdx.x] + block_exclusive_scan(s, warp_sums, &tot);
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    run += v[k];
    if (base + k < n) cdf[base + k] = run;
  }
}

__device__ __forceinline__ u64 draw(unsigned long long seed, int j) {
  u64 z = seed + ((u64)j + 1ull) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__global__ void hier_search_kernel(int n, int m, int tiles, unsigned long long seed, const u64* __restrict__ cdf,
                                   const u64* __restrict__ tile_inc, const u64* __restrict__ total_p,
                                   int* __restrict__ idx) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  const u64 total = *total_p;
  if (total == 0) {
    idx[j] = -1;
    return;
  }
  const u64 t = draw(seed, j) % total;
  // level 1: first tile whose inclusive end value exceeds t (exists: tile_inc[tiles-1] = total > t)
  int lo = 0, hi = tiles - 1;
  while (lo < hi) {
    const int mid = lo + ((hi - lo) >> 1);
    if (__ldg(tile_inc + mid) > t) hi = mid;
    else lo = mid + 1;
  }
  // level 2: inside that tile; its last valid entry equals tile_inc[lo] > t, so the answer lies in the window
  const long long first = (long long)lo * kTile;
  long long last = first + kTile - 1;
  if (last > n - 1) last = n - 1;
  int a = (int)first, b = (int)last;
  while (a < b) {
    const int mid = a + ((b - a) >> 1);
    if (__ldg(cdf + mid) > t) b = mid;
    else a = mid + 1;
  }
  idx[j] = a;
}

}  // namespace

extern "C" void weighted_sample_icdf(int n, int m, unsigned long long seed, const uint32_t* w, int* idx,
                                     cudaStream_t stream) {
  if (m <= 0) return;
  const int nn = n > 0 ? n : 0;
  const int tiles = (nn + kTile - 1) / kTile;
  u64* scratch = nullptr;
  cudaMallocAsync((void**)&scratch, sizeof(u64) * ((size_t)nn + 3 * (size_t)tiles + 1), stream);
  u64* total = scratch;
  u64* tile_sum = scratch + 1;
  u64* tile_off = tile_sum + tiles;
  u64* tile_inc = tile_off + tiles;
  u64* cdf = tile_inc + tiles;
  if (tiles > 0) {
    tile_sum_kernel<<<tiles, kThreads, 0, stream>>>(nn, w, tile_sum);
  }
  tile_offsets_kernel<<<1, kThreads, 0, stream>>>(tiles, tile_sum, tile_off, tile_inc, total);
  if (tiles > 0) {
    tile_cdf_kernel<<<tiles, kThreads, 0, stream>>>(nn, w, tile_off, cdf);
  }
  hier_search_kernel<<<(m + 255) / 256, 256, 0, stream>>>(nn, m, tiles, seed, cdf, tile_inc, total, idx);
  cudaFreeAsync(scratch, stream);
}
