// strategy: block_scan — reduce-then-scan over 4096-byte tiles with an associative (quote parity, delimiters-if-outside, candidates) summary: 16 bytes per thread via 128-bit loads, ordered warp-shuffle reductions per tile, one block scans the tile summaries, then each tile rescans with an ordered block-wide exclusive scan so every thread knows its quote state and output offset
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPer = 16;
constexpr int kTile = kThreads * kPer;
constexpr int kScanThreads = 1024;

struct Tri {
  int q;   // parity of quotes
  int c0;  // delimiters when starting outside quotes
  int ca;  // delimiter candidates (',' or '\n'); starting inside gives ca - c0
};

__device__ __forceinline__ Tri tri_id() { return Tri{0, 0, 0}; }
__device__ __forceinline__ Tri tri_cat(const Tri& a, const Tri& b) {  // a then b
  return Tri{a.q ^ b.q, a.c0 + (a.q ? b.ca - b.c0 : b.c0), a.ca + b.ca};
}
__device__ __forceinline__ Tri tri_shfl_down(const Tri& t, int off) {
  return Tri{__shfl_down_sync(0xffffffffu, t.q, off), __shfl_down_sync(0xffffffffu, t.c0, off),
             __shfl_down_sync(0xffffffffu, t.ca, off)};
}
__device__ __forceinline__ Tri tri_shfl_up(const Tri& t, int off) {
  return Tri{__shfl_up_sync(0xffffffffu, t.q, off), __shfl_up_sync(0xffffffffu, t.c0, off),
             __shfl_up_sync(0xffffffffu, t.ca, off)};
}

__device__ __forceinline__ void load16(int n, const unsigned char* __restrict__ data, long long g, int vec_ok,
                                       unsigned char* b) {
  if (vec_ok && g + 16 <= n) {
    const uint4 q = __ldg(reinterpret_cast<const uint4*>(data + g));
    const uint32_t w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int k = 0; k < 16; ++k) b[k] = (unsigned char)(w[k >> 2] >> (8 * (k & 3)));
  } else {
#pragma unroll
    for (int k = 0; k < 16; ++k) b[k] = (g + k < n) ? __ldg(data + g + k) : (unsigned char)0;
  }
}

__device__ __forceinline__ Tri summarize(const unsigned char* b) {
  Tri t = tri_id();
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned char c = b[k];
    if (c == '"') t.q ^= 1;
    else if (c == ',' || c == '\n') {
      ++t.ca;
      t.c0 += t.q ? 0 : 1;
    }
  }
  return t;
}

// ordered inclusive scan across the block; returns this thread's exclusive prefix, *total gets the block total
template <int NT>
__device__ __forceinline__ Tri block_exclusive(Tri x, Tri* warp_tot, Tri* total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 1; off < 32; off <<= 1) {
    const Tri y = tri_shfl_up(x, off);
    if (lane >= off) x = tri_cat(y, x);
  }
  if (lane == 31) warp_tot[warp] = x;
  Tri ex = tri_shfl_up(x, 1);
  if (lane == 0) ex = tri_id();
  __syncthreads();
  Tri pre = tri_id();
  for (int w = 0; w < warp; ++w) pre = tri_cat(pre, warp_tot[w]);
  Tri tot = pre;
  for (int w = warp; w < NT / 32; ++w) tot = tri_cat(tot, warp_tot[w]);
  *total = tot;
  return tri_cat(pre, ex);
}

__global__ void __launch_bounds__(kThreads)
csv_tile_summary(int n, const unsigned char* __restrict__ data, Tri* __restrict__ tiles, int vec_ok) {
  const long long g = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kPer;
  unsigned char b[16];
  load16(n, data, g, vec_ok, b);
  Tri x = summarize(b);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int off = 1; off < 32; off <<= 1) {  // ascending offsets keep lane 0's range contiguous
    const Tri y = tri_shfl_down(x, off);
    if ((lane & (2 * off - 1)) == 0) x = tri_cat(x, y);
  }
  __shared__ Tri warp_tot[kThreads / 32];
  if (lane == 0) warp_tot[warp] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    Tri t = warp_tot[0];
    for (int w = 1; w < kThreads / 32; ++w) t = tri_cat(t, warp_tot[w]);
    tiles[blockIdx.x] = t;
  }
}

// one block: tiles[i] <- (state, offset, -) at the start of tile i; count[0] <- total
__global__ void __launch_bounds__(kScanThreads)
csv_scan_tiles(int ntiles, Tri* __restrict__ tiles, int* __restrict__ count) {
  __shared__ Tri warp_tot[kScanThreads / 32];
  const int per = (ntiles + kScanThreads - 1) / kScanThreads;
  const int b0 = threadIdx.x * per;
  const int b1 = (b0 + per < ntiles) ? b0 + per : ntiles;
  Tri mine = tri_id();
  for (int i = b0; i < b1; ++i) mine = tri_cat(mine, tiles[i]);
  Tri total;
  Tri run = block_exclusive<kScanThreads>(mine, warp_tot, &total);
  for (int i = b0; i < b1; ++i) {
    const Tri t = tiles[i];
    tiles[i] = Tri{run.q, run.c0, 0};
    run = tri_cat(run, t);
  }
  if (threadIdx.x == 0) count[0] = total.c0;
}

__global__ void __launch_bounds__(kThreads)
csv_emit(int n, const unsigned char* __restrict__ data, const Tri* __restrict__ tiles, int* __restrict__ pos,
         int vec_ok) {
  __shared__ Tri warp_tot[kThreads / 32];
  const long long g = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kPer;
  unsigned char b[16];
  load16(n, data, g, vec_ok, b);
  Tri total;
  const Tri ex = block_exclusive<kThreads>(summarize(b), warp_tot, &total);
  const Tri tp = tiles[blockIdx.x];
  int inside = tp.q ^ ex.q;
  int off = tp.c0 + (tp.q ? ex.ca - ex.c0 : ex.c0);
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned char c = b[k];
    if (g + k >= n) break;
    if (c == '"') inside ^= 1;
    else if (!inside && (c == ',' || c == '\n')) pos[off++] = (int)(g + k);
  }
}

__global__ void csv_fill(int n, const int* __restrict__ count, int* __restrict__ pos) {
  const int c = count[0];
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = c + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) pos[i] = -1;
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

extern "C" void csv_delims(int n, const unsigned char* data, int* count, int* pos, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(count, 0, sizeof(int), stream);
    return;
  }
  const int ntiles = (int)(((long long)n + kTile - 1) / kTile);
  Tri* tiles = nullptr;
  cudaMallocAsync((void**)&tiles, (size_t)ntiles * sizeof(Tri), stream);
  const int vec_ok = (((uintptr_t)data) & 15) == 0;
  csv_tile_summary<<<ntiles, kThreads, 0, stream>>>(n, data, tiles, vec_ok);
  csv_scan_tiles<<<1, kScanThreads, 0, stream>>>(ntiles, tiles, count);
  csv_emit<<<ntiles, kThreads, 0, stream>>>(n, data, tiles, pos, vec_ok);
  csv_fill<<<8 * sm_count(), 256, 0, stream>>>(n, count, pos);
  cudaFreeAsync(tiles, stream);
}
