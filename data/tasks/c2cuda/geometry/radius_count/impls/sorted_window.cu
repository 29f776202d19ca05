// strategy: sorted_window — work-efficient: B is bucket-sorted by x on the GPU (min/max reduction, 1024-bucket histogram, block scan, atomic scatter into int4 records); each query then scans only the contiguous run of buckets overlapping [ax - R, ax + R] with R = floor(sqrt(r2)), skipping every point whose x alone rules it out. Counts do not depend on the scatter order, so results stay deterministic
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>

namespace {

constexpr int kBuckets = 1024;
constexpr int kThreads = 256;

struct Grid {
  int minx, maxx;
};

__global__ void init_kernel(Grid* g, int* hist) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t == 0) {
    g->minx = INT_MAX;
    g->maxx = INT_MIN;
  }
  if (t < kBuckets) hist[t] = 0;
}

__global__ void minmax_kernel(int nb, const int* __restrict__ b, Grid* g) {
  int lo = INT_MAX, hi = INT_MIN;
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < nb; j += (long long)gridDim.x * blockDim.x) {
    const int x = __ldg(b + 3 * j);
    lo = min(lo, x);
    hi = max(hi, x);
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, off));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, off));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&g->minx, lo);
    atomicMax(&g->maxx, hi);
  }
}

__device__ __forceinline__ int bucket_width(const Grid& g) {
  // (maxx - minx) / width < kBuckets for this width; computed in 64 bits
  return (int)(((long long)g.maxx - g.minx) / kBuckets + 1);
}

__global__ void hist_kernel(int nb, const int* __restrict__ b, const Grid* __restrict__ g, int* __restrict__ hist) {
  __shared__ int h[kBuckets];
  for (int t = threadIdx.x; t < kBuckets; t += blockDim.x) h[t] = 0;
  __syncthreads();
  const Grid gg = *g;
  const int w = bucket_width(gg);
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < nb; j += (long long)gridDim.x * blockDim.x)
    atomicAdd(&h[(int)(((long long)__ldg(b + 3 * j) - gg.minx) / w)], 1);
  __syncthreads();
  for (int t = threadIdx.x; t < kBuckets; t += blockDim.x)
    if (h[t]) atomicAdd(&hist[t], h[t]);
}

// one block of kBuckets threads: start[k] = sum of hist[0..k), start[kBuckets] = nb; cursor = start
__global__ void scan_kernel(const int* __restrict__ hist, int* __restrict__ start, int* __restrict__ cursor) {
  __shared__ int s[kBuckets];
  const int t = threadIdx.x;
  s[t] = hist[t];
  __syncthreads();
  for (int off = 1; off < kBuckets; off <<= 1) {  // Hillis-Steele inclusive scan
    const int v = (t >= off) ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  const int excl = (t == 0) ? 0 : s[t - 1];
  start[t] = excl;
  cursor[t] = excl;
  if (t == kBuckets - 1) start[kBuckets] = s[t];
}

__global__ void scatter_kernel(int nb, const int* __restrict__ b, const Grid* __restrict__ g, int* __restrict__ cursor,
                               int4* __restrict__ sorted) {
  const Grid gg = *g;
  const int w = bucket_width(gg);
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < nb; j += (long long)gridDim.x * blockDim.x) {
    const int x = __ldg(b + 3 * j), y = __ldg(b + 3 * j + 1), z = __ldg(b + 3 * j + 2);
    const int pos = atomicAdd(&cursor[(int)(((long long)x - gg.minx) / w)], 1);
    sorted[pos] = make_int4(x, y, z, 0);
  }
}

__global__ void __launch_bounds__(kThreads)
query_kernel(int na, int r2, int R, const int* __restrict__ a, const Grid* __restrict__ g, const int* __restrict__ start,
             const int4* __restrict__ sorted, int* __restrict__ cnt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= na) return;
  const Grid gg = *g;
  const int w = bucket_width(gg);
  const int ax = __ldg(a + 3 * (long long)i), ay = __ldg(a + 3 * (long long)i + 1), az = __ldg(a + 3 * (long long)i + 2);
  const long long lo = max((long long)ax - R, (long long)gg.minx);
  const long long hi = min((long long)ax + R, (long long)gg.maxx);
  int c = 0;
  if (lo <= hi) {
    const int b0 = (int)((lo - gg.minx) / w), b1 = (int)((hi - gg.minx) / w);
    const int e0 = __ldg(start + b0), e1 = __ldg(start + b1 + 1);
    for (int k = e0; k < e1; ++k) {
      const int4 p = __ldg(sorted + k);
      const int dx = ax - p.x, dy = ay - p.y, dz = az - p.z;
      c += (dx * dx + dy * dy + dz * dz <= r2);
    }
  }
  cnt[i] = c;
}

__global__ void zero_kernel(int na, int* cnt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < na) cnt[i] = 0;
}

}  // namespace

extern "C" void radius_count(int na, int nb, int r2, const int* a, const int* b, int* cnt, cudaStream_t stream) {
  if (na <= 0) return;
  if (nb <= 0 || r2 < 0) {
    zero_kernel<<<(na + kThreads - 1) / kThreads, kThreads, 0, stream>>>(na, cnt);
    return;
  }
  long long R = (long long)sqrt((double)r2);  // then settle exactly: largest integer with R*R <= r2
  while (R > 0 && R * R > (long long)r2) --R;
  while ((R + 1) * (R + 1) <= (long long)r2) ++R;
  char* scratch = nullptr;
  const size_t grid_bytes = 256;
  const size_t ints = 3 * (size_t)kBuckets + 1;
  const size_t sorted_off = (grid_bytes + ints * sizeof(int) + 255) / 256 * 256;
  cudaMallocAsync(reinterpret_cast<void**>(&scratch), sorted_off + sizeof(int4) * (size_t)nb, stream);
  Grid* g = reinterpret_cast<Grid*>(scratch);
  int* hist = reinterpret_cast<int*>(scratch + grid_bytes);
  int* start = hist + kBuckets;      // kBuckets + 1 entries
  int* cursor = start + kBuckets + 1;
  int4* sorted = reinterpret_cast<int4*>(scratch + sorted_off);
  const int gblocks = (int)min(1024LL, ((long long)nb + kThreads - 1) / kThreads);
  init_kernel<<<(kBuckets + kThreads - 1) / kThreads, kThreads, 0, stream>>>(g, hist);
  minmax_kernel<<<gblocks, kThreads, 0, stream>>>(nb, b, g);
  hist_kernel<<<gblocks, kThreads, 0, stream>>>(nb, b, g, hist);
  scan_kernel<<<1, kBuckets, 0, stream>>>(hist, start, cursor);
  scatter_kernel<<<gblocks, kThreads, 0, stream>>>(nb, b, g, cursor, sorted);
  query_kernel<<<(na + kThreads - 1) / kThreads, kThreads, 0, stream>>>(na, r2, (int)(R > INT_MAX ? INT_MAX : R), a, g,
                                                                        start, sorted, cnt);
  cudaFreeAsync(scratch, stream);
}
