// strategy: flagged_reduce_then_scan — load-balanced over elements regardless of segment lengths: head flags are scattered into a byte array, then a three-kernel reduce-then-scan over (flag, value) pairs with the segmented operator (warp shuffles + per-warp carries), 2048 elements per tile
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kItems = 8;
static constexpr int kTile = kThreads * kItems;
static constexpr int kWarps = kThreads / 32;

struct FV {
  int f;
  float v;
};

// a then b
__device__ __forceinline__ FV combine(FV a, FV b) {
  FV r;
  r.f = a.f | b.f;
  r.v = b.f ? b.v : a.v + b.v;
  return r;
}

__device__ __forceinline__ FV warp_inclusive(FV p, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    float tv = __shfl_up_sync(0xffffffffu, p.v, off);
    int tf = __shfl_up_sync(0xffffffffu, p.f, off);
    if (lane >= off) p = combine(FV{tf, tv}, p);
  }
  return p;
}

// Segmented exclusive block scan; *total = aggregate of the block. Ends with a barrier.
__device__ __forceinline__ FV block_exclusive(FV p, FV* warp_tot, FV* total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  FV inc = warp_inclusive(p, lane);
  float pv = __shfl_up_sync(0xffffffffu, inc.v, 1);
  int pf = __shfl_up_sync(0xffffffffu, inc.f, 1);
  FV wex = (lane == 0) ? FV{0, 0.f} : FV{pf, pv};
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  FV acc{0, 0.f}, tot{0, 0.f};
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    FV t = warp_tot[w];
    if (w < warp) acc = combine(acc, t);
    tot = combine(tot, t);
  }
  __syncthreads();
  *total = tot;
  return combine(acc, wex);
}

__global__ void mark_heads(int nseg, const int* __restrict__ seg_start, unsigned char* __restrict__ flags) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nseg) {
    int a = seg_start[s], b = seg_start[s + 1];
    if (a < b) flags[a] = 1;
  }
}

__device__ __forceinline__ void load_items(int n, long long first, const float* x, const unsigned char* flags,
                                           float (&v)[kItems], int (&f)[kItems]) {
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    long long i = first + k;
    v[k] = (i < n) ? x[i] : 0.f;
    f[k] = (i < n) ? flags[i] : 0;
  }
}

__device__ __forceinline__ FV thread_aggregate(const float (&v)[kItems], const int (&f)[kItems]) {
  FV a{0, 0.f};
#pragma unroll
  for (int k = 0; k < kItems; ++k) a = combine(a, FV{f[k], v[k]});
  return a;
}

__global__ void tile_aggregates(int n, const float* __restrict__ x, const unsigned char* __restrict__ flags,
                                FV* __restrict__ agg) {
  __shared__ FV warp_tot[kWarps];
  const long long first = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kItems;
  float v[kItems];
  int f[kItems];
  load_items(n, first, x, flags, v, f);
  FV total;
  block_exclusive(thread_aggregate(v, f), warp_tot, &total);
  if (threadIdx.x == 0) agg[blockIdx.x] = total;
}

// One block: in-place segmented exclusive scan of the m tile aggregates.
__global__ void scan_aggregates(int m, FV* agg) {
  __shared__ FV warp_tot[kWarps];
  FV carry{0, 0.f};
  for (int start = 0; start < m; start += kThreads) {
    int i = start + threadIdx.x;
    FV p = (i < m) ? agg[i] : FV{0, 0.f};
    FV total;
    FV ex = block_exclusive(p, warp_tot, &total);
    if (i < m) agg[i] = combine(carry, ex);
    carry = combine(carry, total);
  }
}

__global__ void tile_scan(int n, const float* __restrict__ x, const unsigned char* __restrict__ flags,
                          const FV* __restrict__ prefix, float* __restrict__ out) {
  __shared__ FV warp_tot[kWarps];
  __shared__ float stage[kTile + kTile / 32];
#define PAD(i) ((i) + ((i) >> 5))
  const long long base = (long long)blockIdx.x * kTile;
  const long long first = base + (long long)threadIdx.x * kItems;
  float v[kItems];
  int f[kItems];
  load_items(n, first, x, flags, v, f);
  FV total;
  FV run = combine(prefix[blockIdx.x], block_exclusive(thread_aggregate(v, f), warp_tot, &total));
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    run = combine(run, FV{f[k], v[k]});
    stage[PAD(threadIdx.x * kItems + k)] = run.v;
  }
  __syncthreads();
  const int valid = (int)min((long long)kTile, (long long)n - base);
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    if (j < valid) out[base + j] = stage[PAD(j)];
  }
#undef PAD
}

extern "C" void segmented_scan_f32(int n, int nseg, const int* seg_start, const float* x, float* out,
                                   cudaStream_t stream) {
  if (n <= 0 || nseg <= 0) return;
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  unsigned char* flags = nullptr;
  FV* agg = nullptr;
  cudaMallocAsync((void**)&flags, (size_t)n, stream);
  cudaMallocAsync((void**)&agg, sizeof(FV) * (size_t)tiles, stream);
  cudaMemsetAsync(flags, 0, (size_t)n, stream);
  mark_heads<<<(nseg + 255) / 256, 256, 0, stream>>>(nseg, seg_start, flags);
  tile_aggregates<<<tiles, kThreads, 0, stream>>>(n, x, flags, agg);
  scan_aggregates<<<1, kThreads, 0, stream>>>(tiles, agg);
  tile_scan<<<tiles, kThreads, 0, stream>>>(n, x, flags, agg, out);
  cudaFreeAsync(agg, stream);
  cudaFreeAsync(flags, stream);
}
