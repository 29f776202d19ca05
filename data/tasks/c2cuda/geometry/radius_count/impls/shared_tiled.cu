// strategy: shared_tiled — B is staged through shared memory in 1024-point tiles (packed as int4 for one broadcast read per point), each thread carries 4 query points in registers and accumulates branch-free predicate counts
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPts = 4;
constexpr int kTile = 1024;

__global__ void __launch_bounds__(kThreads)
radius_tiled_kernel(int na, int nb, int r2, const int* __restrict__ a, const int* __restrict__ b, int* __restrict__ cnt) {
  __shared__ int4 tile[kTile];
  const long long base = (long long)blockIdx.x * (kThreads * kPts) + threadIdx.x;
  int ax[kPts], ay[kPts], az[kPts], c[kPts];
#pragma unroll
  for (int p = 0; p < kPts; ++p) {
    const long long i = base + p * kThreads;
    const long long ic = i < na ? i : na - 1;
    ax[p] = __ldg(a + 3 * ic);
    ay[p] = __ldg(a + 3 * ic + 1);
    az[p] = __ldg(a + 3 * ic + 2);
    c[p] = 0;
  }
  for (int t0 = 0; t0 < nb; t0 += kTile) {
    const int n = min(kTile, nb - t0);
    __syncthreads();
    for (int e = threadIdx.x; e < n; e += kThreads) {
      const int* s = b + 3 * ((long long)t0 + e);
      tile[e] = make_int4(__ldg(s), __ldg(s + 1), __ldg(s + 2), 0);
    }
    __syncthreads();
#pragma unroll 4
    for (int e = 0; e < n; ++e) {
      const int4 q = tile[e];
#pragma unroll
      for (int p = 0; p < kPts; ++p) {
        const int dx = ax[p] - q.x, dy = ay[p] - q.y, dz = az[p] - q.z;
        c[p] += (dx * dx + dy * dy + dz * dz <= r2);
      }
    }
  }
#pragma unroll
  for (int p = 0; p < kPts; ++p) {
    const long long i = base + p * kThreads;
    if (i < na) cnt[i] = c[p];
  }
}

}  // namespace

extern "C" void radius_count(int na, int nb, int r2, const int* a, const int* b, int* cnt, cudaStream_t stream) {
  if (na <= 0) return;
  const long long per_block = (long long)kThreads * kPts;
  radius_tiled_kernel<<<(unsigned int)((na + per_block - 1) / per_block), kThreads, 0, stream>>>(na, nb, r2, a, b, cnt);
}
