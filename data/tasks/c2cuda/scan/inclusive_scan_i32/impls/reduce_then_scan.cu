// strategy: reduce_then_scan — three kernels: per-tile sums (2048 items/tile), one block scans the tile sums, then each tile is re-read through shared memory, scanned per thread (8 items in registers) + warp-shuffle block scan, and stored coalesced
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kItems = 8;
static constexpr int kTile = kThreads * kItems;
static constexpr int kWarps = kThreads / 32;

__device__ __forceinline__ int warp_inclusive(int v) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

// Exclusive block scan of v; total returned through *total. Ends with a barrier.
__device__ __forceinline__ int block_exclusive(int v, int* warp_sums, int* total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int inc = warp_inclusive(v);
  if (lane == 31) warp_sums[warp] = inc;
  __syncthreads();
  int off = 0, tot = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    int s = warp_sums[w];
    if (w < warp) off += s;
    tot += s;
  }
  __syncthreads();
  *total = tot;
  return off + inc - v;
}

__global__ void tile_sums(int n, const int* __restrict__ x, int* __restrict__ sums) {
  __shared__ int warp_sums[kWarps];
  const long long base = (long long)blockIdx.x * kTile;
  int s = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    long long i = base + k * kThreads + threadIdx.x;
    if (i < n) s += x[i];
  }
  int total;
  block_exclusive(s, warp_sums, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// One block: in-place exclusive scan of m tile sums.
__global__ void scan_sums(int m, int* sums) {
  __shared__ int warp_sums[kWarps];
  int carry = 0;
  for (int start = 0; start < m; start += kThreads) {
    int i = start + threadIdx.x;
    int v = (i < m) ? sums[i] : 0;
    int total;
    int ex = block_exclusive(v, warp_sums, &total);
    if (i < m) sums[i] = carry + ex;
    carry += total;
  }
}

__global__ void tile_scan(int n, const int* __restrict__ x, const int* __restrict__ offs, int* __restrict__ out) {
  __shared__ int tile[kTile + kTile / 32];  // padded to avoid bank conflicts on per-thread runs
  __shared__ int warp_sums[kWarps];
  const long long base = (long long)blockIdx.x * kTile;
  const int valid = (int)min((long long)kTile, (long long)n - base);
#define PAD(i) ((i) + ((i) >> 5))
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    tile[PAD(j)] = (j < valid) ? x[base + j] : 0;
  }
  __syncthreads();
  int r[kItems];
  int s = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    s += tile[PAD(threadIdx.x * kItems + k)];
    r[k] = s;
  }
  int total;
  int ex = block_exclusive(s, warp_sums, &total) + offs[blockIdx.x];
#pragma unroll
  for (int k = 0; k < kItems; ++k) tile[PAD(threadIdx.x * kItems + k)] = r[k] + ex;
  __syncthreads();
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    if (j < valid) out[base + j] = tile[PAD(j)];
  }
#undef PAD
}

extern "C" void inclusive_scan_i32(int n, const int* x, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  int* sums = nullptr;
  cudaMallocAsync((void**)&sums, sizeof(int) * (size_t)tiles, stream);
  tile_sums<<<tiles, kThreads, 0, stream>>>(n, x, sums);
  scan_sums<<<1, kThreads, 0, stream>>>(tiles, sums);
  tile_scan<<<tiles, kThreads, 0, stream>>>(n, x, sums, out);
  cudaFreeAsync(sums, stream);
}
