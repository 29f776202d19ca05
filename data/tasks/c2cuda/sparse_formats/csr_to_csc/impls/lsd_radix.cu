// strategy: lsd_radix — no atomics decide any order: a stable least-significant-digit radix sort (8-bit digits, as many passes as the column range needs) of (column, CSR position) pairs, each pass = per-tile digit histograms, one device-wide digit-major scan, and a stable tile scatter ranked with warp match_any + per-warp digit prefixes; colptr then comes from binary searches in the sorted columns and rowidx/cvals from one gather
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRounds = 8;
constexpr int kTile = kThreads * kRounds;  // items per radix tile
constexpr int kRadix = 256;
constexpr int kScanPer = 8;
constexpr int kScanTile = kThreads * kScanPer;

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

__global__ void __launch_bounds__(kThreads) zero_i32(int n, int* __restrict__ p) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = 0;
}

// rowof[k] = row of CSR position k (one warp per row)
__global__ void __launch_bounds__(kThreads)
expand_rows(int rows, const int* __restrict__ rowptr, int* __restrict__ rowof) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  for (int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const int b = __ldg(rowptr + r), e = __ldg(rowptr + r + 1);
    for (int k = b + lane; k < e; k += 32) rowof[k] = r;
  }
}

// counts[d * ntiles + tile] = how many keys of the tile have digit d
__global__ void __launch_bounds__(kThreads)
radix_hist(int nnz, int ntiles, int shift, const int* __restrict__ keys, int* __restrict__ counts) {
  __shared__ int h[kRadix];
  const int tile = blockIdx.x;
  h[threadIdx.x] = 0;
  __syncthreads();
  const int base = tile * kTile;
#pragma unroll
  for (int j = 0; j < kRounds; ++j) {
    const int i = base + j * kThreads + threadIdx.x;
    if (i < nnz) atomicAdd(h + ((unsigned)__ldg(keys + i) >> shift & (kRadix - 1)), 1);
  }
  __syncthreads();
  counts[(size_t)threadIdx.x * ntiles + tile] = h[threadIdx.x];
}

__device__ int block_exclusive_scan(int v, int* total) {
  __shared__ int warp_sums[kWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int incl = v;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const int o = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += o;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const int w = lane < kWarps ? warp_sums[lane] : 0;
    int wi = w;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      const int o = __shfl_up_sync(0xffffffffu, wi, off);
      if (lane >= off) wi += o;
    }
    if (lane < kWarps) warp_sums[lane] = wi - w;
    if (lane == kWarps - 1) *total = wi;
  }
  __syncthreads();
  const int res = warp_sums[warp] + incl - v;
  __syncthreads();
  return res;
}

__global__ void __launch_bounds__(kThreads) scan_reduce(int n, const int* __restrict__ a, int* __restrict__ tile_sum) {
  __shared__ int total;
  const long long base = (long long)blockIdx.x * kScanTile + threadIdx.x * kScanPer;
  int s = 0;
#pragma unroll
  for (int j = 0; j < kScanPer; ++j) s += base + j < n ? a[base + j] : 0;
  (void)block_exclusive_scan(s, &total);
  if (threadIdx.x == 0) tile_sum[blockIdx.x] = total;
}

__global__ void __launch_bounds__(kThreads) scan_tiles(int ntiles, int* __restrict__ tile_sum) {
  __shared__ int total;
  int carry = 0;
  for (int base = 0; base < ntiles; base += kThreads) {
    const int i = base + threadIdx.x;
    const int v = i < ntiles ? tile_sum[i] : 0;
    const int ex = block_exclusive_scan(v, &total);
    if (i < ntiles) tile_sum[i] = carry + ex;
    carry += total;
    __syncthreads();
  }
}

// in-place exclusive scan of a (each thread reads its 8 values before writing them)
__global__ void __launch_bounds__(kThreads)
scan_apply(int n, int* __restrict__ a, const int* __restrict__ tile_off) {
  __shared__ int total;
  const long long base = (long long)blockIdx.x * kScanTile + threadIdx.x * kScanPer;
  int v[kScanPer];
  int s = 0;
#pragma unroll
  for (int j = 0; j < kScanPer; ++j) {
    v[j] = base + j < n ? a[base + j] : 0;
    s += v[j];
  }
  int run = tile_off[blockIdx.x] + block_exclusive_scan(s, &total);
#pragma unroll
  for (int j = 0; j < kScanPer; ++j) {
    if (base + j < n) a[base + j] = run;
    run += v[j];
  }
}

// stable scatter of one tile: item order inside the tile is (round, warp, lane), which is index order
template <bool kFirst>
__global__ void __launch_bounds__(kThreads)
radix_scatter(int nnz, int ntiles, int shift, const int* __restrict__ keys_in, const int* __restrict__ vals_in,
              const int* __restrict__ offs, int* __restrict__ keys_out, int* __restrict__ vals_out) {
  __shared__ int run[kRadix];
  __shared__ int gbase[kRadix];
  __shared__ int whist[kWarps][kRadix];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned int lt = (1u << lane) - 1u;
  const int tile = blockIdx.x;
  run[tid] = 0;
  gbase[tid] = offs[(size_t)tid * ntiles + tile];
  const int base = tile * kTile;
  for (int round = 0; round < kRounds; ++round) {
#pragma unroll
    for (int w = 0; w < kWarps; ++w) whist[w][tid] = 0;
    __syncthreads();
    const int i = base + round * kThreads + tid;
    const bool valid = i < nnz;
    const int key = valid ? keys_in[i] : 0;
    const int val = valid ? (kFirst ? i : vals_in[i]) : 0;
    const int d = valid ? (int)((unsigned)key >> shift & (kRadix - 1)) : kRadix;  // invalid lanes group apart
    const unsigned int peers = __match_any_sync(0xffffffffu, d);
    const int rank = __popc(peers & lt);
    if (valid && rank == 0) whist[warp][d] = __popc(peers);
    __syncthreads();
    int sum = 0;  // thread tid turns digit tid's per-warp counts into exclusive prefixes
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const int t = whist[w][tid];
      whist[w][tid] = sum;
      sum += t;
    }
    __syncthreads();
    if (valid) {
      const int pos = gbase[d] + run[d] + whist[warp][d] + rank;
      keys_out[pos] = key;
      vals_out[pos] = val;
    }
    __syncthreads();
    run[tid] += sum;
  }
}

// colptr[c] = first position whose sorted column is >= c
__global__ void __launch_bounds__(kThreads)
colptr_search(int cols, int nnz, const int* __restrict__ skeys, int* __restrict__ colptr) {
  const int stride = gridDim.x * blockDim.x;
  for (int c = blockIdx.x * blockDim.x + threadIdx.x; c <= cols; c += stride) {
    int lo = 0, hi = nnz;
    while (lo < hi) {
      const int mid = lo + ((hi - lo) >> 1);
      if (__ldg(skeys + mid) < c) lo = mid + 1;
      else hi = mid;
    }
    colptr[c] = lo;
  }
}

__global__ void __launch_bounds__(kThreads)
gather_out(int nnz, const int* __restrict__ perm, const int* __restrict__ rowof, const float* __restrict__ vals,
           int* __restrict__ rowidx, float* __restrict__ cvals) {
  const int stride = gridDim.x * blockDim.x;
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < nnz; p += stride) {
    const int k = __ldcs(perm + p);
    rowidx[p] = __ldg(rowof + k);
    cvals[p] = __ldg(vals + k);
  }
}

unsigned int grid_for(long long work_items, int items_per_block, long long cap) {
  long long b = (work_items + items_per_block - 1) / items_per_block;
  if (b < 1) b = 1;
  if (b > cap) b = cap;
  return (unsigned int)b;
}

void exclusive_scan(int n, int* a, int* tile_sum, cudaStream_t stream) {
  const int nt = (int)(((long long)n + kScanTile - 1) / kScanTile);
  scan_reduce<<<nt, kThreads, 0, stream>>>(n, a, tile_sum);
  scan_tiles<<<1, kThreads, 0, stream>>>(nt, tile_sum);
  scan_apply<<<nt, kThreads, 0, stream>>>(n, a, tile_sum);
}

}  // namespace

extern "C" void csr_to_csc(int rows, int cols, int nnz, const int* rowptr, const int* colidx, const float* vals,
                           int* colptr, int* rowidx, float* cvals, cudaStream_t stream) {
  if (cols < 0) return;
  const long long cap = 32LL * sm_count();
  if (cols == 0 || nnz <= 0) {
    zero_i32<<<grid_for(cols + 1, kThreads, cap), kThreads, 0, stream>>>(cols + 1, colptr);
    return;
  }
  int bits = 0;
  while (bits < 31 && ((cols - 1) >> bits) != 0) ++bits;  // bits needed for the largest column index
  const int passes = bits == 0 ? 1 : (bits + 7) / 8;
  const int ntiles = (int)(((long long)nnz + kTile - 1) / kTile);
  const int ncounts = kRadix * ntiles;
  const int nscan_tiles = (int)(((long long)ncounts + kScanTile - 1) / kScanTile);

  int *keys[2] = {nullptr, nullptr}, *perm[2] = {nullptr, nullptr};
  int* counts = nullptr;
  int* tile_sum = nullptr;
  int* rowof = nullptr;
  for (int b = 0; b < 2; ++b) {
    cudaMallocAsync(reinterpret_cast<void**>(&keys[b]), sizeof(int) * (size_t)nnz, stream);
    cudaMallocAsync(reinterpret_cast<void**>(&perm[b]), sizeof(int) * (size_t)nnz, stream);
  }
  cudaMallocAsync(reinterpret_cast<void**>(&counts), sizeof(int) * (size_t)ncounts, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&tile_sum), sizeof(int) * (size_t)nscan_tiles, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&rowof), sizeof(int) * (size_t)nnz, stream);

  if (rows > 0) expand_rows<<<grid_for(rows, kWarps, cap), kThreads, 0, stream>>>(rows, rowptr, rowof);
  int cur = 0;
  for (int p = 0; p < passes; ++p) {
    const int shift = 8 * p;
    const int* kin = p == 0 ? colidx : keys[cur];
    const int out = p == 0 ? 0 : cur ^ 1;
    radix_hist<<<ntiles, kThreads, 0, stream>>>(nnz, ntiles, shift, kin, counts);
    exclusive_scan(ncounts, counts, tile_sum, stream);
    if (p == 0)
      radix_scatter<true><<<ntiles, kThreads, 0, stream>>>(nnz, ntiles, shift, kin, nullptr, counts, keys[out], perm[out]);
    else
      radix_scatter<false><<<ntiles, kThreads, 0, stream>>>(nnz, ntiles, shift, kin, perm[cur], counts, keys[out],
                                                            perm[out]);
    cur = out;
  }
  colptr_search<<<grid_for((long long)cols + 1, kThreads, cap), kThreads, 0, stream>>>(cols, nnz, keys[cur], colptr);
  gather_out<<<grid_for(nnz, kThreads, cap), kThreads, 0, stream>>>(nnz, perm[cur], rowof, vals, rowidx, cvals);

  cudaFreeAsync(rowof, stream);
  cudaFreeAsync(tile_sum, stream);
  cudaFreeAsync(counts, stream);
  for (int b = 0; b < 2; ++b) {
    cudaFreeAsync(perm[b], stream);
    cudaFreeAsync(keys[b], stream);
  }
}
