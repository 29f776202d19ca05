// strategy: warp_rank_sort — grid-stride atomic column histogram, a multi-block reduce-then-scan for colptr, a warp-per-row scatter with coalesced reads claiming slots by atomics, then one warp per column restores the stable order by rank counting (each element's final slot = number of smaller CSR positions in its column, compared 32 at a time via shuffles) and writes rowidx/cvals directly
#include <climits>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kScanPer = 8;
constexpr int kScanTile = kThreads * kScanPer;  // 2048 counts per scan block

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

__global__ void __launch_bounds__(kThreads) count_cols(int nnz, const int* __restrict__ colidx, int* __restrict__ cnt) {
  const int stride = gridDim.x * blockDim.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += stride) atomicAdd(cnt + __ldg(colidx + k), 1);
}

// exclusive scan of the 256 values v of a block; returns this thread's prefix, *total = block sum
__device__ int block_exclusive_scan(int v, int* total) {
  __shared__ int warp_sums[kThreads / 32];
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
    int w = lane < kThreads / 32 ? warp_sums[lane] : 0;
    int wi = w;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      const int o = __shfl_up_sync(0xffffffffu, wi, off);
      if (lane >= off) wi += o;
    }
    if (lane < kThreads / 32) warp_sums[lane] = wi - w;  // exclusive warp offsets
    if (lane == kThreads / 32 - 1) *total = wi;
  }
  __syncthreads();
  const int res = warp_sums[warp] + incl - v;
  __syncthreads();  // warp_sums may be reused by the next call
  return res;
}

// phase 1: per-tile sums of cnt
__global__ void __launch_bounds__(kThreads) scan_reduce(int n, const int* __restrict__ cnt, int* __restrict__ tile_sum) {
  __shared__ int total;
  const int base = blockIdx.x * kScanTile + threadIdx.x * kScanPer;
  int s = 0;
#pragma unroll
  for (int j = 0; j < kScanPer; ++j) s += base + j < n ? cnt[base + j] : 0;
  (void)block_exclusive_scan(s, &total);
  if (threadIdx.x == 0) tile_sum[blockIdx.x] = total;
}

// phase 2: exclusive scan of the tile sums in one block, chunk by chunk with a carry
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

// phase 3: each tile scans its counts and adds its offset; writes colptr and cursor; colptr[n] = nnz
__global__ void __launch_bounds__(kThreads)
scan_apply(int n, int nnz, const int* __restrict__ cnt, const int* __restrict__ tile_off, int* __restrict__ colptr,
           int* __restrict__ cursor) {
  __shared__ int total;
  const int base = blockIdx.x * kScanTile + threadIdx.x * kScanPer;
  int v[kScanPer];
  int s = 0;
#pragma unroll
  for (int j = 0; j < kScanPer; ++j) {
    v[j] = base + j < n ? cnt[base + j] : 0;
    s += v[j];
  }
  int run = tile_off[blockIdx.x] + block_exclusive_scan(s, &total);
#pragma unroll
  for (int j = 0; j < kScanPer; ++j) {
    if (base + j < n) {
      colptr[base + j] = run;
      cursor[base + j] = run;
    }
    run += v[j];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) colptr[n] = nnz;
}

__global__ void __launch_bounds__(kThreads)
scatter_rows(int rows, const int* __restrict__ rowptr, const int* __restrict__ colidx, int* __restrict__ cursor,
             int* __restrict__ perm) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  for (int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const int b = __ldg(rowptr + r), e = __ldg(rowptr + r + 1);
    for (int k = b + lane; k < e; k += 32) perm[atomicAdd(cursor + __ldg(colidx + k), 1)] = k;
  }
}

// last row r with rowptr[r] <= k
__device__ __forceinline__ int row_of(const int* __restrict__ rowptr, int rows, int k) {
  int lo = 0, hi = rows;
  while (hi - lo > 1) {
    const int mid = lo + ((hi - lo) >> 1);
    if (__ldg(rowptr + mid) <= k) lo = mid;
    else hi = mid;
  }
  return lo;
}

// one warp per column: the CSR positions in a column are distinct, so rank = count of smaller ones
__global__ void __launch_bounds__(kThreads)
rank_columns(int rows, int cols, const int* __restrict__ rowptr, const int* __restrict__ colptr,
             const int* __restrict__ perm, const float* __restrict__ vals, int* __restrict__ rowidx,
             float* __restrict__ cvals) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  for (int c = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; c < cols; c += warps_total) {  // warp-uniform
    const int s = __ldg(colptr + c), e = __ldg(colptr + c + 1);
    for (int ib = s; ib < e; ib += 32) {
      const int i = ib + lane;
      const int my = i < e ? perm[i] : INT_MAX;
      int rank = 0;
      for (int tb = s; tb < e; tb += 32) {
        const int t = tb + lane;
        const int other = t < e ? perm[t] : INT_MAX;
        const int cnt = min(32, e - tb);  // warp-uniform
        for (int u = 0; u < cnt; ++u) rank += __shfl_sync(0xffffffffu, other, u) < my ? 1 : 0;
      }
      if (i < e) {
        rowidx[s + rank] = row_of(rowptr, rows, my);
        cvals[s + rank] = __ldg(vals + my);
      }
    }
  }
}

unsigned int grid_for(long long work_items, int items_per_block, long long cap) {
  long long b = (work_items + items_per_block - 1) / items_per_block;
  if (b < 1) b = 1;
  if (b > cap) b = cap;
  return (unsigned int)b;
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
  const int ntiles = (cols + kScanTile - 1) / kScanTile;
  int* cnt = nullptr;
  int* cursor = nullptr;
  int* tile_sum = nullptr;
  int* perm = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&cnt), sizeof(int) * (size_t)cols, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&cursor), sizeof(int) * (size_t)cols, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&tile_sum), sizeof(int) * (size_t)ntiles, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&perm), sizeof(int) * (size_t)nnz, stream);
  zero_i32<<<grid_for(cols, kThreads, cap), kThreads, 0, stream>>>(cols, cnt);
  count_cols<<<grid_for(nnz, kThreads, cap), kThreads, 0, stream>>>(nnz, colidx, cnt);
  scan_reduce<<<ntiles, kThreads, 0, stream>>>(cols, cnt, tile_sum);
  scan_tiles<<<1, kThreads, 0, stream>>>(ntiles, tile_sum);
  scan_apply<<<ntiles, kThreads, 0, stream>>>(cols, nnz, cnt, tile_sum, colptr, cursor);
  if (rows > 0) scatter_rows<<<grid_for(rows, kThreads / 32, cap), kThreads, 0, stream>>>(rows, rowptr, colidx, cursor, perm);
  rank_columns<<<grid_for(cols, kThreads / 32, cap), kThreads, 0, stream>>>(rows, cols, rowptr, colptr, perm, vals,
                                                                            rowidx, cvals);
  cudaFreeAsync(perm, stream);
  cudaFreeAsync(tile_sum, stream);
  cudaFreeAsync(cursor, stream);
  cudaFreeAsync(cnt, stream);
}
