// strategy: reduce_then_scan — three-phase scan over 4096-element tiles: each thread owns 16 contiguous elements read as four int4 vectors; phase 1 counts run heads per tile, phase 2 (one block) scans the tile counts, phase 3 recounts, block-scans the per-thread counts with warp shuffles and scatters distinct values and start positions; a last pass forms run lengths
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;

// loads this thread's 16 contiguous elements (vectorised on full tiles) and returns its head mask
__device__ __forceinline__ unsigned load_heads(int n, const int* __restrict__ a, long long base, int (&v)[kItems]) {
  if (base + kItems <= n) {
    const int4* p = reinterpret_cast<const int4*>(a + base);
#pragma unroll
    for (int q = 0; q < kItems / 4; ++q) {
      const int4 t = __ldg(p + q);
      v[4 * q] = t.x;
      v[4 * q + 1] = t.y;
      v[4 * q + 2] = t.z;
      v[4 * q + 3] = t.w;
    }
  } else {
#pragma unroll
    for (int q = 0; q < kItems; ++q) v[q] = base + q < n ? __ldg(a + base + q) : 0;
  }
  unsigned mask = 0;
  if (base < n) {
    int prev = base > 0 ? __ldg(a + base - 1) : 0;
#pragma unroll
    for (int q = 0; q < kItems; ++q) {
      if (base + q < n && (base + q == 0 || v[q] != prev)) mask |= 1u << q;
      prev = v[q];
    }
  }
  return mask;
}

// exclusive scan of one int per thread over the block; *total receives the block sum
__device__ __forceinline__ int block_exclusive_scan(int x, int* total) {
  __shared__ int warp_incl[kThreads / 32];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int incl = x;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const int t = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += t;
  }
  if (lane == 31) warp_incl[w] = incl;
  __syncthreads();
  if (w == 0) {
    int s = lane < kThreads / 32 ? warp_incl[lane] : 0;
#pragma unroll
    for (int off = 1; off < kThreads / 32; off <<= 1) {
      const int t = __shfl_up_sync(0xffffffffu, s, off);
      if (lane >= off) s += t;
    }
    if (lane < kThreads / 32) warp_incl[lane] = s;
  }
  __syncthreads();
  *total = warp_incl[kThreads / 32 - 1];
  return (w > 0 ? warp_incl[w - 1] : 0) + incl - x;
}

__global__ void __launch_bounds__(kThreads) tile_count(int n, const int* __restrict__ a, int* __restrict__ tile_cnt) {
  int v[kItems];
  const long long base = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kItems;
  const int c = __popc(load_heads(n, a, base, v));
  int total;
  block_exclusive_scan(c, &total);
  if (threadIdx.x == 0) tile_cnt[blockIdx.x] = total;
}

__global__ void __launch_bounds__(kThreads) scan_tiles(int tiles, int* __restrict__ tile_cnt, int* __restrict__ nuniq) {
  int carry = 0;
  for (int t0 = 0; t0 < tiles; t0 += kThreads) {
    const int t = t0 + threadIdx.x;
    const int c = t < tiles ? tile_cnt[t] : 0;
    int total;
    const int ex = block_exclusive_scan(c, &total);
    if (t < tiles) tile_cnt[t] = carry + ex;
    carry += total;
    __syncthreads();  // warp_incl is reused by the next round
  }
  if (threadIdx.x == 0) nuniq[0] = carry;
}

__global__ void __launch_bounds__(kThreads)
tile_emit(int n, const int* __restrict__ a, const int* __restrict__ tile_off, int* __restrict__ vals,
          int* __restrict__ pos) {
  int v[kItems];
  const long long base = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kItems;
  unsigned mask = load_heads(n, a, base, v);
  int total;
  int k = tile_off[blockIdx.x] + block_exclusive_scan(__popc(mask), &total);
#pragma unroll
  for (int q = 0; q < kItems; ++q)
    if (mask & (1u << q)) {
      vals[k] = v[q];
      pos[k] = (int)(base + q);
      ++k;
    }
}

__global__ void finish_runs(int n, const int* __restrict__ nuniq, const int* __restrict__ pos, int* __restrict__ vals,
                            int* __restrict__ runs) {
  const int u = *nuniq;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
    if (k < u) {
      const int next = k + 1 < u ? __ldg(pos + k + 1) : n;
      __stcs(runs + k, next - __ldg(pos + k));
    } else {
      __stcs(vals + k, 0);
      __stcs(runs + k, 0);
    }
  }
}

}  // namespace

extern "C" void rle_sorted_i32(int n, const int* a, int* vals, int* runs, int* nuniq, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(nuniq, 0, sizeof(int), stream);
    return;
  }
  const int tiles = (int)(((long long)n + kTile - 1) / kTile);
  int* tile_cnt = nullptr;
  int* pos = nullptr;
  cudaMallocAsync((void**)&tile_cnt, sizeof(int) * (size_t)tiles, stream);
  cudaMallocAsync((void**)&pos, sizeof(int) * (size_t)n, stream);
  tile_count<<<tiles, kThreads, 0, stream>>>(n, a, tile_cnt);
  scan_tiles<<<1, kThreads, 0, stream>>>(tiles, tile_cnt, nuniq);
  tile_emit<<<tiles, kThreads, 0, stream>>>(n, a, tile_cnt, vals, pos);
  long long fb = ((long long)n + 255) / 256;
  if (fb > 65536) fb = 65536;
  finish_runs<<<(unsigned)fb, 256, 0, stream>>>(n, nuniq, pos, vals, runs);
  cudaFreeAsync(pos, stream);
  cudaFreeAsync(tile_cnt, stream);
}
