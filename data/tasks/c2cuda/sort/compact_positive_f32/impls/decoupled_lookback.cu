// strategy: decoupled_lookback — single pass: each 4096-element tile (16 consecutive floats per thread via float4 loads) counts its kept elements, resolves its output offset by decoupled look-back over packed 64-bit (flag, count) words, compacts through shared memory and writes one contiguous run; a final kernel zero-fills [count, n)
#include <cuda_runtime.h>
#include <cstdint>

static constexpr int kThreads = 256;
static constexpr int kItems = 16;
static constexpr int kTile = kThreads * kItems;
static constexpr int kWarps = kThreads / 32;
static constexpr unsigned long long kFlagAgg = 1ull << 32;
static constexpr unsigned long long kFlagPrefix = 2ull << 32;

__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__global__ void __launch_bounds__(kThreads) compact_lookback(int n, int ntiles, const float* __restrict__ x,
                                                             float* __restrict__ out, int* __restrict__ count,
                                                             unsigned long long* status, int* tile_counter, bool vec) {
  __shared__ float kept[kTile];
  __shared__ int warp_sums[kWarps];
  __shared__ int s_tile, s_prefix;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1);
  __syncthreads();
  const int tile = s_tile;
  const long long first = (long long)tile * kTile + (long long)threadIdx.x * kItems;
  float v[kItems];
  if (vec && first + kItems <= n) {
    const float4* p = reinterpret_cast<const float4*>(x + first);
#pragma unroll
    for (int q = 0; q < kItems / 4; ++q) {
      float4 f = p[q];
      v[4 * q] = f.x; v[4 * q + 1] = f.y; v[4 * q + 2] = f.z; v[4 * q + 3] = f.w;
    }
  } else {
#pragma unroll
    for (int q = 0; q < kItems; ++q) v[q] = (first + q < n) ? x[first + q] : 0.0f;
  }
  int c = 0;
#pragma unroll
  for (int q = 0; q < kItems; ++q) c += v[q] > 0.0f ? 1 : 0;
  // block exclusive scan of the per-thread counts
  int inc = c;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, inc, off);
    if (lane >= off) inc += t;
  }
  if (lane == 31) warp_sums[warp] = inc;
  __syncthreads();
  int woff = 0, total = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    int s = warp_sums[w];
    if (w < warp) woff += s;
    total += s;
  }
  int local = woff + inc - c;
#pragma unroll
  for (int q = 0; q < kItems; ++q)
    if (v[q] > 0.0f) kept[local++] = v[q];

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
        unsigned long long st = kFlagPrefix;  // virtual predecessor with prefix 0
        if (t >= 0) {
          do {
            st = *((volatile unsigned long long*)&status[t]);
          } while ((st >> 32) == 0);
        }
        const unsigned pm = __ballot_sync(0xffffffffu, (st >> 32) == 2);
        const int val = (int)(unsigned)(st & 0xffffffffull);
        if (pm) {
          const int firstp = __ffs(pm) - 1;
          exclusive += warp_sum(lane <= firstp ? val : 0);
          break;
        }
        exclusive += warp_sum(val);
        t0 -= 32;
      }
      if (lane == 0) {
        atomicExch(&status[tile], kFlagPrefix | (unsigned)(exclusive + total));
        s_prefix = exclusive;
      }
    }
    if (tile == ntiles - 1 && lane == 0) count[0] = s_prefix + total;
  }
  __syncthreads();
  const long long dst = s_prefix;
  for (int i = threadIdx.x; i < total; i += kThreads) out[dst + i] = kept[i];
}

__global__ void zero_tail(int n, const int* __restrict__ count, float* __restrict__ out) {
  const long long total = count[0];
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = total + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = 0.0f;
}

extern "C" void compact_positive_f32(int n, const float* x, float* out, int* count, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(count, 0, sizeof(int), stream);
    return;
  }
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  const size_t bytes = sizeof(unsigned long long) * ((size_t)tiles + 1);
  unsigned long long* scratch = nullptr;
  cudaMallocAsync((void**)&scratch, bytes, stream);
  cudaMemsetAsync(scratch, 0, bytes, stream);
  const bool vec = ((uintptr_t)x & 15) == 0;
  compact_lookback<<<tiles, kThreads, 0, stream>>>(n, tiles, x, out, count, scratch, (int*)(scratch + tiles), vec);
  const int zblocks = (int)(((long long)n + 1023) / 1024 < 4096 ? ((long long)n + 1023) / 1024 : 4096);
  zero_tail<<<zblocks, 256, 0, stream>>>(n, count, out);
  cudaFreeAsync(scratch, stream);
}
