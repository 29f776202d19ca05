// strategy: reduce_then_scan — tile-granular three kernels (2048 floats/tile): tile sums with float4 loads, one block scans the tile sums, then each thread scans 8 consecutive items held in registers (two float4 loads/stores when aligned) with a warp-shuffle block scan
#include <cuda_runtime.h>
#include <cstdint>

static constexpr int kThreads = 256;
static constexpr int kItems = 8;
static constexpr int kTile = kThreads * kItems;
static constexpr int kWarps = kThreads / 32;

__device__ __forceinline__ float warp_inclusive(float v) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    float t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

// Exclusive block scan; *total gets the block total. Ends with a barrier (safe to call in loops).
__device__ __forceinline__ float block_exclusive(float v, float* warp_sums, float* total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float inc = warp_inclusive(v);
  if (lane == 31) warp_sums[warp] = inc;
  __syncthreads();
  float off = 0.f, tot = 0.f;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    float s = warp_sums[w];
    if (w < warp) off += s;
    tot += s;
  }
  __syncthreads();
  *total = tot;
  return off + (inc - v);
}

// Loads this thread's 8 consecutive items (zeros past the end).
__device__ __forceinline__ void load_items(int n, const float* x, long long first, bool vec, float (&v)[kItems]) {
  if (vec && first + kItems <= n) {
    const float4 a = *reinterpret_cast<const float4*>(x + first);
    const float4 b = *reinterpret_cast<const float4*>(x + first + 4);
    v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
    v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) v[k] = (first + k < n) ? x[first + k] : 0.f;
  }
}

__global__ void tile_sums(int n, const float* __restrict__ x, float* __restrict__ sums, bool vec) {
  __shared__ float warp_sums[kWarps];
  const long long first = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kItems;
  float v[kItems];
  load_items(n, x, first, vec, v);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < kItems; ++k) s += v[k];
  float total;
  block_exclusive(s, warp_sums, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

__global__ void scan_sums(int m, float* sums) {
  __shared__ float warp_sums[kWarps];
  float carry = 0.f;
  for (int start = 0; start < m; start += kThreads) {
    int i = start + threadIdx.x;
    float v = (i < m) ? sums[i] : 0.f;
    float total;
    float ex = block_exclusive(v, warp_sums, &total);
    if (i < m) sums[i] = carry + ex;
    carry += total;
  }
}

__global__ void tile_scan(int n, const float* __restrict__ x, const float* __restrict__ offs, float* __restrict__ out,
                          bool vec) {
  __shared__ float warp_sums[kWarps];
  const long long first = (long long)blockIdx.x * kTile + (long long)threadIdx.x * kItems;
  float v[kItems];
  load_items(n, x, first, vec, v);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < kItems; ++k) s += v[k];
  float total;
  float run = block_exclusive(s, warp_sums, &total) + offs[blockIdx.x];
  float o[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    o[k] = run;
    run += v[k];
  }
  if (vec && first + kItems <= n) {
    *reinterpret_cast<float4*>(out + first) = make_float4(o[0], o[1], o[2], o[3]);
    *reinterpret_cast<float4*>(out + first + 4) = make_float4(o[4], o[5], o[6], o[7]);
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k)
      if (first + k < n) out[first + k] = o[k];
  }
}

extern "C" void exclusive_scan_f32(int n, const float* x, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const bool vec = (((uintptr_t)x | (uintptr_t)out) & 15) == 0;
  const int tiles = (int)((n + (long long)kTile - 1) / kTile);
  float* sums = nullptr;
  cudaMallocAsync((void**)&sums, sizeof(float) * (size_t)tiles, stream);
  tile_sums<<<tiles, kThreads, 0, stream>>>(n, x, sums, vec);
  scan_sums<<<1, kThreads, 0, stream>>>(tiles, sums);
  tile_scan<<<tiles, kThreads, 0, stream>>>(n, x, sums, out, vec);
  cudaFreeAsync(sums, stream);
}
