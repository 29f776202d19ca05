// strategy: merge_path_shared — the output is cut into 2048-element tiles; a partition kernel finds every tile's merge-path split with one binary search per tile, then each block stages its a- and b-ranges in shared memory with coalesced loads, each thread merges 8 outputs from its own merge-path split, and the tile is stored coalesced
#include <cuda_runtime.h>

static constexpr int kThreads = 256;
static constexpr int kIpt = 8;
static constexpr int kTile = kThreads * kIpt;

// number of elements of A among the first d outputs of the stable merge (ties: A first)
__device__ __forceinline__ long long corank(long long d, const double* A, long long na, const double* B, long long nb) {
  long long lo = d - nb > 0 ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    long long mid = (lo + hi) >> 1;
    if (A[mid] <= B[d - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__global__ void partition(int na, int nb, int ntiles, const double* __restrict__ a, const double* __restrict__ b,
                          long long* __restrict__ split) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t > ntiles) return;
  long long d = (long long)t * kTile;
  const long long total = (long long)na + nb;
  if (d > total) d = total;
  split[t] = corank(d, a, na, b, nb);
}

__global__ void __launch_bounds__(kThreads) merge_tiles(int na, int nb, const double* __restrict__ a,
                                                        const double* __restrict__ b, const long long* __restrict__ split,
                                                        double* __restrict__ out) {
  __shared__ double s[kTile];
  __shared__ double o[kTile];
  const long long total = (long long)na + nb;
  const long long d0 = (long long)blockIdx.x * kTile;
  const long long d1 = min(d0 + kTile, total);
  const long long a0 = split[blockIdx.x], a1 = split[blockIdx.x + 1];
  const long long b0 = d0 - a0, b1 = d1 - a1;
  const int la = (int)(a1 - a0), lb = (int)(b1 - b0);
  const int cnt = la + lb;
  for (int i = threadIdx.x; i < cnt; i += kThreads) s[i] = (i < la) ? a[a0 + i] : b[b0 + (i - la)];
  __syncthreads();
  const int dd = threadIdx.x * kIpt;
  if (dd < cnt) {
    int i = (int)corank(dd, s, la, s + la, lb);
    int j = dd - i;
    const int m = min(kIpt, cnt - dd);
    for (int q = 0; q < m; ++q) {
      const bool takeA = (j >= lb) || (i < la && s[i] <= s[la + j]);
      o[dd + q] = takeA ? s[i++] : s[la + j++];
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < cnt; i += kThreads) out[d0 + i] = o[i];
}

extern "C" void merge_sorted_f64(int na, int nb, const double* a, const double* b, double* out, cudaStream_t stream) {
  const long long total = (long long)na + nb;
  if (total <= 0) return;
  const int ntiles = (int)((total + kTile - 1) / kTile);
  long long* split = nullptr;
  cudaMallocAsync((void**)&split, sizeof(long long) * ((size_t)ntiles + 1), stream);
  partition<<<(ntiles + 1 + 255) / 256, 256, 0, stream>>>(na, nb, ntiles, a, b, split);
  merge_tiles<<<ntiles, kThreads, 0, stream>>>(na, nb, a, b, split, out);
  cudaFreeAsync(split, stream);
}
