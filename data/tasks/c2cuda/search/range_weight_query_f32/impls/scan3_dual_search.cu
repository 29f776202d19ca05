// strategy: scan3_dual_search — coalesced three-phase double prefix (tile sums from float4 loads, one-block scan of the tile sums, per-tile rescan with warp-shuffle block scans), then each query runs its two lower_bound searches interleaved in one loop so both dependent load chains are in flight together
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTile = kThreads * kItems;

// exclusive block scan of one double per thread; *total gets the block sum
__device__ __forceinline__ double block_scan_excl(double x, double* total) {
  __shared__ double warp_tot[kThreads / 32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  double incl = x;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const double t = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += t;
  }
  if (lane == 31) warp_tot[wid] = incl;
  __syncthreads();
  double before = 0.0, all = 0.0;
#pragma unroll
  for (int j = 0; j < kThreads / 32; ++j) {
    const double t = warp_tot[j];
    if (j < wid) before += t;
    all += t;
  }
  __syncthreads();  // warp_tot may be rewritten by the caller's next scan
  *total = all;
  return before + incl - x;
}

__device__ __forceinline__ void load_tile(int n, const float* __restrict__ w, long long base, float (&v)[kItems]) {
  if (base + kItems <= n) {
    const float4* p = reinterpret_cast<const float4*>(w + base);
    const float4 a = __ldg(p), b = __ldg(p + 1);
    v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
    v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
  } else {
#pragma unroll
    for (int q = 0; q < kItems; ++q) v[q] = base + q < n ? __ldg(w + base + q) : 0.0f;
  }
}

__global__ void __launch_bounds__(kThreads) tile_sums(int n, const float* __restrict__ w, double* __restrict__ tsum) {
  float v[kItems];
  load_tile(n, w, (long long)blockIdx.x * kTile + threadIdx.x * kItems, v);
  double s = 0.0;
#pragma unroll
  for (int q = 0; q < kItems; ++q) s += (double)v[q];
  double total;
  block_scan_excl(s, &total);
  if (threadIdx.x == 0) tsum[blockIdx.x] = total;
}

__global__ void __launch_bounds__(kThreads) scan_tile_sums(int tiles, double* __restrict__ tsum) {
  double carry = 0.0;
  for (int t0 = 0; t0 < tiles; t0 += kThreads) {
    const int t = t0 + threadIdx.x;
    const double v = t < tiles ? tsum[t] : 0.0;
    double total;
    const double ex = block_scan_excl(v, &total);
    if (t < tiles) tsum[t] = carry + ex;
    carry += total;
  }
}

__global__ void __launch_bounds__(kThreads)
tile_prefix(int n, const float* __restrict__ w, const double* __restrict__ toff, double* __restrict__ prefix) {
  float v[kItems];
  const long long base = (long long)blockIdx.x * kTile + threadIdx.x * kItems;
  load_tile(n, w, base, v);
  double s = 0.0;
#pragma unroll
  for (int q = 0; q < kItems; ++q) s += (double)v[q];
  double total;
  double run = toff[blockIdx.x] + block_scan_excl(s, &total);
  if (blockIdx.x == 0 && threadIdx.x == 0) prefix[0] = 0.0;
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    run += (double)v[q];
    if (base + q < n) prefix[base + q + 1] = run;
  }
}

__global__ void dual_search_queries(int n, int m, const float* __restrict__ keys, const double* __restrict__ prefix,
                                    const float* __restrict__ qlo, const float* __restrict__ qlen,
                                    int* __restrict__ count, float* __restrict__ wsum) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const float lo = __ldcs(qlo + i);
  const float hi = lo + __ldcs(qlen + i);
  // two lower_bounds stepped together: [ba, ba+la) and [bb, bb+lb) still contain the answers
  int ba = 0, la = n, bb = 0, lb = n;
  while (la > 0 || lb > 0) {
    const int ha = la >> 1, hb = lb >> 1;
    const float ka = la > 0 ? __ldg(keys + ba + ha) : 0.0f;
    const float kb = lb > 0 ? __ldg(keys + bb + hb) : 0.0f;
    if (la > 0) {
      if (ka < lo) {
        ba += ha + 1;
        la -= ha + 1;
      } else {
        la = ha;
      }
    }
    if (lb > 0) {
      if (kb < hi) {
        bb += hb + 1;
        lb -= hb + 1;
      } else {
        lb = hb;
      }
    }
  }
  __stcs(count + i, bb - ba);
  __stcs(wsum + i, (float)(__ldg(prefix + bb) - __ldg(prefix + ba)));
}

}  // namespace

extern "C" void range_weight_query_f32(int n, int m, const float* keys, const float* w, const float* qlo,
                                       const float* qlen, int* count, float* wsum, cudaStream_t stream) {
  if (m <= 0) return;
  const int tiles = n > 0 ? (int)(((long long)n + kTile - 1) / kTile) : 1;
  double* prefix = nullptr;
  double* tsum = nullptr;
  cudaMallocAsync((void**)&prefix, sizeof(double) * ((size_t)n + 1), stream);
  cudaMallocAsync((void**)&tsum, sizeof(double) * (size_t)tiles, stream);
  tile_sums<<<tiles, kThreads, 0, stream>>>(n, w, tsum);
  scan_tile_sums<<<1, kThreads, 0, stream>>>(tiles, tsum);
  tile_prefix<<<tiles, kThreads, 0, stream>>>(n, w, tsum, prefix);
  dual_search_queries<<<(unsigned)(((long long)m + 255) / 256), 256, 0, stream>>>(n, m, keys, prefix, qlo, qlen,
                                                                                 count, wsum);
  cudaFreeAsync(tsum, stream);
  cudaFreeAsync(prefix, stream);
}
