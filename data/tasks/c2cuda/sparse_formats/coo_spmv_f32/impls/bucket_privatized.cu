// strategy: bucket_privatized — two-pass binning: entries are bucketed by row block (4096 rows) with block-local shared-memory histograms and one global reservation per bucket per tile, products are scattered into per-bucket lists, then one block per bucket accumulates its rows with shared-memory atomics and writes y once, coalesced (global atomics only for small counters)
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPerThread = 16;
constexpr int kTile = kThreads * kPerThread;  // entries per tile
constexpr int kBucketShift = 12;
constexpr int kBucketRows = 1 << kBucketShift;
constexpr int kMaxBuckets = 8192;  // shared histogram <= 32 KiB
constexpr int kScanThreads = 1024;
constexpr int kAccThreads = 512;

__global__ void __launch_bounds__(kThreads) zero_f32(int n, float* __restrict__ p) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = 0.0f;
}

__global__ void __launch_bounds__(kThreads) zero_i32(int n, int* __restrict__ p) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = 0;
}

// fallback when rows need more buckets than fit in shared memory: direct global atomics
__global__ void __launch_bounds__(kThreads)
coo_direct_kernel(int nnz, const int* __restrict__ rowidx, const int* __restrict__ colidx,
                  const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y) {
  const int stride = gridDim.x * blockDim.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += stride)
    atomicAdd(y + __ldg(rowidx + k), __ldg(vals + k) * __ldg(x + __ldg(colidx + k)));
}

// pass 1: per-bucket entry counts (tile histogram in shared memory, then one global add per bucket)
__global__ void __launch_bounds__(kThreads)
coo_count_kernel(int nnz, int nb, const int* __restrict__ rowidx, int* __restrict__ counts) {
  extern __shared__ int hist[];
  const int tiles = (int)(((long long)nnz + kTile - 1) / kTile);
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    for (int b = threadIdx.x; b < nb; b += kThreads) hist[b] = 0;
    __syncthreads();
    const int base = tile * kTile;
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int k = base + j * kThreads + threadIdx.x;
      if (k < nnz) atomicAdd(hist + (__ldg(rowidx + k) >> kBucketShift), 1);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < nb; b += kThreads)
      if (hist[b]) atomicAdd(counts + b, hist[b]);
    __syncthreads();
  }
}

// pass 2: exclusive scan of nb <= 8192 counts in one block; offsets[nb] = nnz, cursor = offsets
__global__ void __launch_bounds__(kScanThreads)
coo_scan_kernel(int nb, const int* __restrict__ counts, int* __restrict__ offsets, int* __restrict__ cursor) {
  constexpr int kPer = kMaxBuckets / kScanThreads;  // 8
  __shared__ int part[kScanThreads];
  const int t = threadIdx.x;
  int local[kPer];
  int sum = 0;
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    const int b = t * kPer + j;
    local[j] = b < nb ? counts[b] : 0;
    sum += local[j];
  }
  part[t] = sum;
  __syncthreads();
  // Hillis-Steele inclusive scan of the per-thread sums
  for (int off = 1; off < kScanThreads; off <<= 1) {
    const int v = t >= off ? part[t - off] : 0;
    __syncthreads();
    part[t] += v;
    __syncthreads();
  }
  int run = part[t] - sum;  // exclusive prefix of this thread's first bucket
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    const int b = t * kPer + j;
    if (b < nb) {
      offsets[b] = run;
      cursor[b] = run;
    }
    run += local[j];
  }
  if (t == kScanThreads - 1) offsets[nb] = part[t];
}

// pass 3: scatter (row within bucket, product) pairs; each tile reserves one range per bucket
__global__ void __launch_bounds__(kThreads)
coo_scatter_kernel(int nnz, int nb, const int* __restrict__ rowidx, const int* __restrict__ colidx,
                   const float* __restrict__ vals, const float* __restrict__ x, int* __restrict__ cursor,
                   int2* __restrict__ pairs) {
  extern __shared__ int hist[];  // tile count, then the tile's global base, per bucket
  const int tiles = (int)(((long long)nnz + kTile - 1) / kTile);
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    for (int b = threadIdx.x; b < nb; b += kThreads) hist[b] = 0;
    __syncthreads();
    const int base = tile * kTile;
    int row[kPerThread], rank[kPerThread];
    float prod[kPerThread];
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int k = base + j * kThreads + threadIdx.x;
      if (k < nnz) {
        row[j] = __ldcs(rowidx + k);
        prod[j] = __ldcs(vals + k) * __ldg(x + __ldcs(colidx + k));
        rank[j] = atomicAdd(hist + (row[j] >> kBucketShift), 1);
      } else {
        row[j] = -1;
        prod[j] = 0.0f;
        rank[j] = 0;
      }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < nb; b += kThreads) {
      const int c = hist[b];
      hist[b] = c ? atomicAdd(cursor + b, c) : 0;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      if (row[j] >= 0) {
        const int slot = hist[row[j] >> kBucketShift] + rank[j];
        pairs[slot] = make_int2(row[j] & (kBucketRows - 1), __float_as_int(prod[j]));
      }
    }
    __syncthreads();
  }
}

// pass 4: one block per bucket sums its pairs into shared accumulators and writes its rows of y
__global__ void __launch_bounds__(kAccThreads)
coo_accumulate_kernel(int rows, const int* __restrict__ offsets, const int2* __restrict__ pairs,
                      float* __restrict__ y) {
  __shared__ float acc[kBucketRows];
  const int b = blockIdx.x;
  for (int i = threadIdx.x; i < kBucketRows; i += kAccThreads) acc[i] = 0.0f;
  __syncthreads();
  const int beg = offsets[b], end = offsets[b + 1];
  for (int i = beg + threadIdx.x; i < end; i += kAccThreads) {
    const int2 p = __ldcs(pairs + i);
    atomicAdd(acc + p.x, __int_as_float(p.y));
  }
  __syncthreads();
  const int r0 = b << kBucketShift;
  const int n = min(kBucketRows, rows - r0);
  for (int i = threadIdx.x; i < n; i += kAccThreads) y[r0 + i] = acc[i];
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

extern "C" void coo_spmv_f32(int rows, int cols, int nnz, const int* rowidx, const int* colidx,
                             const float* vals, const float* x, float* y, cudaStream_t stream) {
  (void)cols;
  if (rows <= 0) return;
  const int sms = sm_count();
  const int nb = (int)(((long long)rows + kBucketRows - 1) / kBucketRows);
  if (nnz <= 0 || nb > kMaxBuckets) {
    long long zb = ((long long)rows + kThreads - 1) / kThreads;
    if (zb > 32LL * sms) zb = 32LL * sms;
    zero_f32<<<(unsigned int)zb, kThreads, 0, stream>>>(rows, y);
    if (nnz <= 0) return;
    long long blocks = ((long long)nnz + kThreads - 1) / kThreads;
    if (blocks > 32LL * sms) blocks = 32LL * sms;
    coo_direct_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(nnz, rowidx, colidx, vals, x, y);
    return;
  }
  int* counts = nullptr;
  int* offsets = nullptr;
  int* cursor = nullptr;
  int2* pairs = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&counts), sizeof(int) * (size_t)nb, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&offsets), sizeof(int) * (size_t)(nb + 1), stream);
  cudaMallocAsync(reinterpret_cast<void**>(&cursor), sizeof(int) * (size_t)nb, stream);
  cudaMallocAsync(reinterpret_cast<void**>(&pairs), sizeof(int2) * (size_t)nnz, stream);

  zero_i32<<<(nb + kThreads - 1) / kThreads, kThreads, 0, stream>>>(nb, counts);
  const long long tiles = ((long long)nnz + kTile - 1) / kTile;
  long long grid = tiles < 16LL * sms ? tiles : 16LL * sms;
  const size_t smem = sizeof(int) * (size_t)nb;
  coo_count_kernel<<<(unsigned int)grid, kThreads, smem, stream>>>(nnz, nb, rowidx, counts);
  coo_scan_kernel<<<1, kScanThreads, 0, stream>>>(nb, counts, offsets, cursor);
  coo_scatter_kernel<<<(unsigned int)grid, kThreads, smem, stream>>>(nnz, nb, rowidx, colidx, vals, x, cursor, pairs);
  coo_accumulate_kernel<<<nb, kAccThreads, 0, stream>>>(rows, offsets, pairs, y);

  cudaFreeAsync(pairs, stream);
  cudaFreeAsync(cursor, stream);
  cudaFreeAsync(offsets, stream);
  cudaFreeAsync(counts, stream);
}
