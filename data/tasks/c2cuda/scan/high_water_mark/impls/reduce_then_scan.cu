// strategy: reduce_then_scan — the (sum, max-prefix) monoid scanned in three kernels: per-tile aggregates (2048 items), one block scans the tile aggregates, then each tile is re-read through shared memory, 8 items per thread in registers, warp-shuffle block scan of the monoid, coalesced 64-bit stores
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kItems = 8;
static constexpr int kTile = kThreads * kItems;
static constexpr int kWarps = kThreads / 32;
static constexpr long long kNeg = -(1LL << 62);

struct SM {
  long long s, m;  // sum of the span, max over its non-empty prefixes (kNeg for the empty span)
};

__device__ __forceinline__ SM combine(SM a, SM b) { return SM{a.s + b.s, max(a.m, a.s + b.m)}; }

__device__ __forceinline__ SM warp_inclusive(SM p, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    long long ts = __shfl_up_sync(0xffffffffu, p.s, off);
    long long tm = __shfl_up_sync(0xffffffffu, p.m, off);
    if (lane >= off) p = combine(SM{ts, tm}, p);
  }
  return p;
}

// Exclusive block scan of the monoid; *total = block aggregate. Ends with a barrier.
__device__ __forceinline__ SM block_exclusive(SM p, SM* warp_tot, SM* total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  SM inc = warp_inclusive(p, lane);
  long long ps = __shfl_up_sync(0xffffffffu, inc.s, 1);
  long long pm = __shfl_up_sync(0xffffffffu, inc.m, 1);
  SM wex = (lane == 0) ? SM{0, kNeg} : SM{ps, pm};
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  SM acc{0, kNeg}, tot{0, kNeg};
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    SM t = warp_tot[w];
    if (w < warp) acc = combine(acc, t);
    tot = combine(tot, t);
  }
  __syncthreads();
  *total = tot;
  return combine(acc, wex);
}

#define PAD(i) ((i) + ((i) >> 5))

__device__ __forceinline__ void stage_tile(int n, long long base, const int* x, int* tile) {
  const int valid = (int)min((long long)kTile, (long long)n - base);
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    tile[PAD(j)] = (j < valid) ? x[base + j] : 0;
  }
  __syncthreads();
}

// Aggregate of this thread's items; items past the end act as the identity.
__device__ __forceinline__ SM thread_aggregate(int n, long long base, const int* tile, int (&d)[kItems]) {
  SM a{0, kNeg};
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    d[k] = tile[PAD(threadIdx.x * kItems + k)];
    if (base + threadIdx.x * kItems + k < n) a = combine(a, SM{d[k], d[k]});
  }
  return a;
}

__global__ void tile_aggregates(int n, const int* __restrict__ x, SM* __restrict__ agg) {
  __shared__ int tile[kTile + kTile / 32];
  __shared__ SM warp_tot[kWarps];
  const long long base = (long long)blockIdx.x * kTile;
  stage_tile(n, base, x, tile);
  int d[kItems];
  SM total;
  block_exclusive(thread_aggregate(n, base, tile, d), warp_tot, &total);
  if (threadIdx.x == 0) agg[blockIdx.x] = total;
}

__global__ void scan_aggregates(int m, SM* agg) {
  __shared__ SM warp_tot[kWarps];
  SM carry{0, kNeg};
  for (int start = 0; start < m; start += kThreads) {
    int i = start + threadIdx.x;
    SM p = (i < m) ? agg[i] : SM{0, kNeg};
    SM total;
    SM ex = block_exclusive(p, warp_tot, &total);
    if (i < m) agg[i] = combine(carry, ex);
    carry = combine(carry, total);
  }
}

__global__ void tile_scan(int n, const int* __restrict__ x, const SM* __restrict__ prefix, long long* __restrict__ out) {
  __shared__ int tile[kTile + kTile / 32];
  __shared__ long long res[kTile + kTile / 32];
  __shared__ SM warp_tot[kWarps];
  const long long base = (long long)blockIdx.x * kTile;
  stage_tile(n, base, x, tile);
  int d[kItems];
  SM total;
  SM run = combine(prefix[blockIdx.x], block_exclusive(thread_aggregate(n, base, tile, d), warp_tot, &total));
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    run = combine(run, SM{d[k], d[k]});
    res[PAD(threadIdx.x * kItems + k)] = run.m;
  }
  __syncthreads();
  const int valid = (int)min((long long)kTile, (long long)n - base);
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    if (j < valid) out[base + j] = res[PAD(j)];
  }
}

extern "C" void high_water_mark(int n, const int* delta, long long* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  SM* agg = nullptr;
  cudaMallocAsync((void**)&agg, sizeof(SM) * (size_t)tiles, stream);
  tile_aggregates<<<tiles, kThreads, 0, stream>>>(n, delta, agg);
  scan_aggregates<<<1, kThreads, 0, stream>>>(tiles, agg);
  tile_scan<<<tiles, kThreads, 0, stream>>>(n, delta, agg, out);
  cudaFreeAsync(agg, stream);
}
