// strategy: lsd_radix — stable LSD radix sort of (key, value) pairs, 4 passes of 8-bit digits of the sign-flipped key: per-tile digit histograms (warp-aggregated via __match_any_sync), a three-kernel scan of the digit-major count table, then a stable scatter ranking keys per warp with __match_any_sync and reordering each 4096-pair tile in shared memory for contiguous global writes
#include <cuda_runtime.h>

typedef int Key;  // values are int too and travel with the keys
#define KV 1
static constexpr unsigned kFlip = 0x80000000u;
// ---- generic LSD radix sort (8-bit digits, 4 passes), stable ----
// Needs: Key (unsigned int or int), KV (0/1), kFlip (xor applied to the key bits before taking digits)
static constexpr int kThreads = 256;
static constexpr int kWarps = kThreads / 32;
static constexpr int kRounds = 16;                 // rounds of 32 items per warp
static constexpr int kPerWarp = 32 * kRounds;      // 512 contiguous items per warp
static constexpr int kTile = kWarps * kPerWarp;    // 4096 items per tile
static constexpr int kScanItems = 8;
static constexpr int kScanTile = kThreads * kScanItems;

__device__ __forceinline__ unsigned digit_of(Key k, int sh) { return (((unsigned)k ^ kFlip) >> sh) & 255u; }

__device__ __forceinline__ int warp_inclusive_i(int v, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

// exclusive block scan over kThreads ints; *total = sum. Ends with a barrier.
__device__ __forceinline__ int block_exclusive_i(int v, int* warp_sums, int* total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int inc = warp_inclusive_i(v, lane);
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

// counts[d * ntiles + tile] = number of keys of the tile with digit d
__global__ void __launch_bounds__(kThreads) radix_hist(int n, const Key* __restrict__ keys, int sh, int ntiles,
                                                       int* __restrict__ counts) {
  __shared__ int h[256];
  const int lane = threadIdx.x & 31;
  h[threadIdx.x] = 0;
  __syncthreads();
  const long long base = (long long)blockIdx.x * kTile;
  for (int r = 0; r < kTile / kThreads; ++r) {
    long long i = base + r * kThreads + threadIdx.x;
    bool valid = i < n;
    unsigned d = valid ? digit_of(keys[i], sh) : 256u;
    unsigned peers = __match_any_sync(0xffffffffu, d);
    if (valid && lane == __ffs(peers) - 1) atomicAdd(&h[d], __popc(peers));
  }
  __syncthreads();
  counts[(long long)threadIdx.x * ntiles + blockIdx.x] = h[threadIdx.x];
}

// ---- exclusive scan of an int array (in place), three kernels ----
__global__ void scan_tile_sums(int m, const int* __restrict__ a, int* __restrict__ sums) {
  __shared__ int warp_sums[kWarps];
  const long long base = (long long)blockIdx.x * kScanTile;
  int s = 0;
  for (int k = 0; k < kScanItems; ++k) {
    long long i = base + k * kThreads + threadIdx.x;
    if (i < m) s += a[i];
  }
  int total;
  block_exclusive_i(s, warp_sums, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

__global__ void scan_single(int m, int* sums) {
  __shared__ int warp_sums[kWarps];
  int carry = 0;
  for (int start = 0; start < m; start += kThreads) {
    int i = start + threadIdx.x;
    int v = (i < m) ? sums[i] : 0;
    int total;
    int ex = block_exclusive_i(v, warp_sums, &total);
    if (i < m) sums[i] = carry + ex;
    carry += total;
  }
}

__global__ void scan_tiles_inplace(int m, int* a, const int* __restrict__ offs) {
  __shared__ int tile[kScanTile + kScanTile / 32];
  __shared__ int warp_sums[kWarps];
#define PAD(i) ((i) + ((i) >> 5))
  const long long base = (long long)blockIdx.x * kScanTile;
  const int valid = (int)min((long long)kScanTile, (long long)m - base);
  for (int k = 0; k < kScanItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    tile[PAD(j)] = (j < valid) ? a[base + j] : 0;
  }
  __syncthreads();
  int r[kScanItems];
  int s = 0;
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    r[k] = s;
    s += tile[PAD(threadIdx.x * kScanItems + k)];
  }
  int total;
  int ex = block_exclusive_i(s, warp_sums, &total) + offs[blockIdx.x];
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) tile[PAD(threadIdx.x * kScanItems + k)] = r[k] + ex;
  __syncthreads();
  for (int k = 0; k < kScanItems; ++k) {
    int j = k * kThreads + threadIdx.x;
    if (j < valid) a[base + j] = tile[PAD(j)];
  }
#undef PAD
}

// Stable scatter of one tile: per-warp ranking with __match_any_sync, per-digit warp offsets, then the tile is
// reordered by digit in shared memory so that the global writes are runs of consecutive addresses.
__global__ void __launch_bounds__(kThreads) radix_scatter(int n, const Key* __restrict__ kin, const Key* __restrict__ vin,
                                                          Key* __restrict__ kout, Key* __restrict__ vout, int sh,
                                                          int ntiles, const int* __restrict__ offs) {
  __shared__ int wcount[kWarps][256];
  __shared__ int gbase[256];
  __shared__ int toff[256];
  __shared__ int warp_sums[kWarps];
  __shared__ Key skeys[kTile];
#if KV
  __shared__ Key svals[kTile];
#endif
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < kWarps * 256; i += kThreads) (&wcount[0][0])[i] = 0;
  gbase[threadIdx.x] = offs[(long long)threadIdx.x * ntiles + blockIdx.x];
  __syncthreads();
  const long long tbase = (long long)blockIdx.x * kTile;
  const long long wbase = tbase + (long long)warp * kPerWarp;
  Key k[kRounds];
#if KV
  Key v[kRounds];
#endif
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    long long i = wbase + r * 32 + lane;
    k[r] = (i < n) ? kin[i] : (Key)0;
#if KV
    v[r] = (i < n) ? vin[i] : (Key)0;
#endif
  }
  const unsigned lt_mask = (1u << lane) - 1u;
  int rank[kRounds];
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    const bool valid = wbase + r * 32 + lane < n;
    const unsigned d = valid ? digit_of(k[r], sh) : 256u;
    const unsigned peers = __match_any_sync(0xffffffffu, d);
    const int pre = valid ? wcount[warp][d] : 0;
    __syncwarp();
    if (valid && lane == __ffs(peers) - 1) wcount[warp][d] = pre + __popc(peers);
    __syncwarp();
    rank[r] = pre + __popc(peers & lt_mask);
  }
  __syncthreads();
  {
    const int d = threadIdx.x;
    int run = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      int t = wcount[w][d];
      wcount[w][d] = run;
      run += t;
    }
    int total;
    toff[d] = block_exclusive_i(run, warp_sums, &total);
  }
  __syncthreads();  // toff is read across threads below
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    if (wbase + r * 32 + lane < n) {
      const unsigned d = digit_of(k[r], sh);
      const int local = toff[d] + wcount[warp][d] + rank[r];
      skeys[local] = k[r];
#if KV
      svals[local] = v[r];
#endif
    }
  }
  __syncthreads();
  const int valid = (int)min((long long)kTile, (long long)n - tbase);
  for (int i = threadIdx.x; i < valid; i += kThreads) {
    const Key key = skeys[i];
    const unsigned d = digit_of(key, sh);
    const int pos = gbase[d] + (i - toff[d]);
    kout[pos] = key;
#if KV
    vout[pos] = svals[i];
#endif
  }
}

// Sorts n (>= 1) keys (and values) from kin/vin into kout/vout; tmp buffers get the odd passes.
static void radix_sort(int n, const Key* kin, const Key* vin, Key* kout, Key* vout, cudaStream_t stream) {
  const int ntiles = (int)((n + (long long)kTile - 1) / kTile);
  const int m = 256 * ntiles;
  const int stiles = (int)((m + (long long)kScanTile - 1) / kScanTile);
  int* counts = nullptr;
  int* ssum = nullptr;
  Key* ktmp = nullptr;
  Key* vtmp = nullptr;
  cudaMallocAsync((void**)&counts, sizeof(int) * (size_t)m, stream);
  cudaMallocAsync((void**)&ssum, sizeof(int) * (size_t)stiles, stream);
  cudaMallocAsync((void**)&ktmp, sizeof(Key) * (size_t)n, stream);
  if (KV) cudaMallocAsync((void**)&vtmp, sizeof(Key) * (size_t)n, stream);
  const Key* ks = kin;
  const Key* vs = vin;
  for (int pass = 0; pass < 4; ++pass) {
    const int sh = 8 * pass;
    Key* kd = (pass % 2 == 0) ? ktmp : kout;  // passes 0,2 -> tmp, 1,3 -> out
    Key* vd = (pass % 2 == 0) ? vtmp : vout;
    radix_hist<<<ntiles, kThreads, 0, stream>>>(n, ks, sh, ntiles, counts);
    scan_tile_sums<<<stiles, kThreads, 0, stream>>>(m, counts, ssum);
    scan_single<<<1, kThreads, 0, stream>>>(stiles, ssum);
    scan_tiles_inplace<<<stiles, kThreads, 0, stream>>>(m, counts, ssum);
    radix_scatter<<<ntiles, kThreads, 0, stream>>>(n, ks, vs, kd, vd, sh, ntiles, counts);
    ks = kd;
    vs = vd;
  }
  cudaFreeAsync(counts, stream);
  cudaFreeAsync(ssum, stream);
  cudaFreeAsync(ktmp, stream);
  if (KV) cudaFreeAsync(vtmp, stream);
}

extern "C" void sort_pairs_i32(int n, const int* keys_in, const int* vals_in, int* keys_out, int* vals_out,
                               cudaStream_t stream) {
  if (n <= 0) return;
  radix_sort(n, keys_in, vals_in, keys_out, vals_out, stream);
}
