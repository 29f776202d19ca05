// strategy: window_smem — each block takes a 2048-element tile of a, finds the matching window of b (lower_bound of the tile's first value, upper_bound of its last) with two global searches, stages that window in shared memory when it fits, and answers all 2048 memberships from shared memory; hits are reduced with warp shuffles to one atomicAdd per block
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPerThread = 8;
constexpr int kTile = kThreads * kPerThread;
constexpr int kWindow = 4096;

// first index in [lo, hi) with p[idx] >= v (upper = false) or p[idx] > v (upper = true)
__device__ __forceinline__ int search(const int* p, int lo, int hi, int v, bool upper) {
  while (lo < hi) {
    const int mid = lo + ((hi - lo) >> 1);
    const int x = p[mid];
    if (x < v || (upper && x == v))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

__global__ void __launch_bounds__(kThreads)
semijoin_window(int na, int nb, const int* __restrict__ a, const int* __restrict__ b, int* __restrict__ hit,
                int* __restrict__ total) {
  __shared__ int win[kWindow];
  __shared__ int bounds[2];
  __shared__ int warp_sums[kThreads / 32];
  const long long t0 = (long long)blockIdx.x * kTile;
  const int cnt = (int)min((long long)kTile, na - t0);
  if (threadIdx.x == 0) bounds[0] = search(b, 0, nb, a[t0], false);
  if (threadIdx.x == 32) bounds[1] = search(b, 0, nb, a[t0 + cnt - 1], true);
  int v[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int e = k * kThreads + threadIdx.x;
    v[k] = e < cnt ? __ldcs(a + t0 + e) : 0;
  }
  __syncthreads();
  const int jlo = bounds[0], jhi = bounds[1];
  const int w = jhi - jlo;
  // every value of the tile has its lower_bound in b inside [jlo, jhi]; landing on jhi is a miss
  const bool staged = w <= kWindow;
  if (staged)
    for (int e = threadIdx.x; e < w; e += kThreads) win[e] = __ldg(b + jlo + e);
  __syncthreads();
  int mine = 0;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int e = k * kThreads + threadIdx.x;
    if (e < cnt) {
      int h;
      if (staged) {
        const int p = search(win, 0, w, v[k], false);
        h = (p < w && win[p] == v[k]) ? 1 : 0;
      } else {
        const int p = search(b, jlo, jhi, v[k], false);
        h = (p < jhi && __ldg(b + p) == v[k]) ? 1 : 0;
      }
      __stcs(hit + t0 + e, h);
      mine += h;
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) mine += __shfl_xor_sync(0xffffffffu, mine, off);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = mine;
  __syncthreads();
  if (threadIdx.x < 32) {
    int s = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (threadIdx.x == 0 && s) atomicAdd(total, s);
  }
}

}  // namespace

extern "C" void sorted_semijoin_i32(int na, int nb, const int* a, const int* b, int* hit, int* total,
                                    cudaStream_t stream) {
  cudaMemsetAsync(total, 0, sizeof(int), stream);
  if (na <= 0) return;
  const unsigned blocks = (unsigned)(((long long)na + kTile - 1) / kTile);
  semijoin_window<<<blocks, kThreads, 0, stream>>>(na, nb, a, b, hit, total);
}
