// strategy: decoupled_lookback — single pass: tiles claimed in order via an atomic counter, each publishes its aggregate in a packed 64-bit (flag, value) status word, warp 0 looks back over 32 predecessors at a time with ballots, then publishes its inclusive prefix
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kItems = 12;
static constexpr int kTile = kThreads * kItems;
static constexpr int kWarps = kThreads / 32;
static constexpr unsigned long long kFlagAgg = 1ull << 32;
static constexpr unsigned long long kFlagPrefix = 2ull << 32;

__device__ __forceinline__ int warp_inclusive(int v) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__global__ void __launch_bounds__(kThreads) lookback_scan(int n, const int* __restrict__ x, int* __restrict__ out,
                                                          unsigned long long* status, int* tile_counter) {
  __shared__ int tile_s[kTile + kTile / 32];
  __shared__ int warp_sums[kWarps];
  __shared__ int s_tile, s_prefix;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1);
  __syncthreads();
  const int tile = s_tile;
  const long long base = (long long)tile * kTile;
  const int valid = (int)min((long long)kTile, (long long)n - base);
#define PAD(i) ((i) + ((i) >> 5))
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    tile_s[PAD(j)] = (j < valid) ? x[base + j] : 0;
  }
  __syncthreads();
  int r[kItems];
  int s = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    s += tile_s[PAD(threadIdx.x * kItems + k)];
    r[k] = s;
  }
  int inc = warp_inclusive(s);
  if (lane == 31) warp_sums[warp] = inc;
  __syncthreads();
  int woff = 0, total = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    int v = warp_sums[w];
    if (w < warp) woff += v;
    total += v;
  }
  const int thread_ex = woff + inc - s;

  if (warp == 0) {
    if (tile == 0) {
      if (lane == 0) {
        atomicExch(&status[0], kFlagPrefix | (unsigned)total);
        s_prefix = 0;
      }
    } else {
      if (lane == 0) atomicExch(&status[tile], kFlagAgg | (unsigned)total);
      int exclusive = 0;
      int t0 = tile - 1;
      while (true) {
        const int t = t0 - lane;
        unsigned long long st;
        if (t >= 0) {
          do {
            st = *((volatile unsigned long long*)&status[t]);
          } while ((st >> 32) == 0);
        } else {
          st = kFlagPrefix;  // virtual predecessor with prefix 0
        }
        const unsigned pm = __ballot_sync(0xffffffffu, (st >> 32) == 2);
        const int v = (int)(unsigned)(st & 0xffffffffull);
        if (pm) {
          const int first = __ffs(pm) - 1;
          exclusive += warp_sum(lane <= first ? v : 0);
          break;
        }
        exclusive += warp_sum(v);
        t0 -= 32;
      }
      if (lane == 0) {
        atomicExch(&status[tile], kFlagPrefix | (unsigned)(exclusive + total));
        s_prefix = exclusive;
      }
    }
  }
  __syncthreads();
  const int ex = s_prefix + thread_ex;
#pragma unroll
  for (int k = 0; k < kItems; ++k) tile_s[PAD(threadIdx.x * kItems + k)] = r[k] + ex;
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    if (j < valid) out[base + j] = tile_s[PAD(j)];
  }
#undef PAD
}

extern "C" void inclusive_scan_i32(int n, const int* x, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  unsigned long long* scratch = nullptr;
  const size_t bytes = sizeof(unsigned long long) * ((size_t)tiles + 1);
  cudaMallocAsync((void**)&scratch, bytes, stream);
  cudaMemsetAsync(scratch, 0, bytes, stream);
  int* counter = (int*)(scratch + tiles);
  lookback_scan<<<tiles, kThreads, 0, stream>>>(n, x, out, scratch, counter);
  cudaFreeAsync(scratch, stream);
}
