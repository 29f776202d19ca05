// strategy: two_pass_ballot — pass 1 counts the kept elements of each 4096-element tile with __ballot_sync/__popc, one block scans the tile counts (and writes count[0]), pass 2 re-reads each tile, ranks elements inside each warp with ballots, orders the (chunk, warp) groups with a small shared-memory scan, writes kept elements and zero-fills its share of the tail
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kWarps = kThreads / 32;
static constexpr int kChunks = 16;  // chunks of 256 consecutive elements per tile
static constexpr int kTile = kThreads * kChunks;

__global__ void tile_counts(int n, const float* __restrict__ x, int* __restrict__ counts) {
  __shared__ int wsum[kWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long base = (long long)blockIdx.x * kTile;
  int c = 0;
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    long long i = base + k * kThreads + threadIdx.x;
    bool keep = (i < n) && x[i] > 0.0f;
    c += __popc(__ballot_sync(0xffffffffu, keep));
  }
  if (lane == 0) wsum[warp] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kWarps; ++w) s += wsum[w];
    counts[blockIdx.x] = s;
  }
}

// One block: exclusive scan of the tile counts in place; count[0] = total.
__global__ void scan_counts(int m, int* counts, int* count) {
  __shared__ int wsum[kWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int carry = 0;
  for (int start = 0; start < m; start += kThreads) {
    int i = start + threadIdx.x;
    int v = (i < m) ? counts[i] : 0;
    int inc = v;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      int t = __shfl_up_sync(0xffffffffu, inc, off);
      if (lane >= off) inc += t;
    }
    if (lane == 31) wsum[warp] = inc;
    __syncthreads();
    int woff = 0, tot = 0;
    for (int w = 0; w < kWarps; ++w) {
      if (w < warp) woff += wsum[w];
      tot += wsum[w];
    }
    if (i < m) counts[i] = carry + woff + inc - v;
    carry += tot;
    __syncthreads();
  }
  if (threadIdx.x == 0) count[0] = carry;
}

__global__ void tile_scatter(int n, const float* __restrict__ x, const int* __restrict__ offs,
                             const int* __restrict__ count, float* __restrict__ out) {
  __shared__ int grp[kChunks * kWarps];  // kept count per (chunk, warp), then its exclusive offset
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long base = (long long)blockIdx.x * kTile;
  const unsigned lt = (1u << lane) - 1u;
  float v[kChunks];
  unsigned ballots[kChunks];
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    long long i = base + k * kThreads + threadIdx.x;
    v[k] = (i < n) ? x[i] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    ballots[k] = __ballot_sync(0xffffffffu, v[k] > 0.0f);
    if (lane == 0) grp[k * kWarps + warp] = __popc(ballots[k]);
  }
  __syncthreads();
  if (warp == 0) {  // exclusive scan of the 128 group counts, 4 per lane, in (chunk, warp) order
    int c[4], s = 0;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      c[q] = grp[lane * 4 + q];
      s += c[q];
    }
    int inc = s;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      int t = __shfl_up_sync(0xffffffffu, inc, off);
      if (lane >= off) inc += t;
    }
    int run = inc - s;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      grp[lane * 4 + q] = run;
      run += c[q];
    }
  }
  __syncthreads();
  const long long toff = offs[blockIdx.x];
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    if (v[k] > 0.0f) out[toff + grp[k * kWarps + warp] + __popc(ballots[k] & lt)] = v[k];
  }
  // zero-fill the part of the tail that falls inside this tile's index range
  const long long total = count[0];
  const long long hi = min(base + kTile, (long long)n);
  for (long long i = max(base, total) + threadIdx.x; i < hi; i += kThreads) out[i] = 0.0f;
}

extern "C" void compact_positive_f32(int n, const float* x, float* out, int* count, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(count, 0, sizeof(int), stream);
    return;
  }
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  int* counts = nullptr;
  cudaMallocAsync((void**)&counts, sizeof(int) * (size_t)tiles, stream);
  tile_counts<<<tiles, kThreads, 0, stream>>>(n, x, counts);
  scan_counts<<<1, kThreads, 0, stream>>>(tiles, counts, count);
  tile_scatter<<<tiles, kThreads, 0, stream>>>(n, x, counts, count, out);
  cudaFreeAsync(counts, stream);
}
