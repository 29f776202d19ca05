// strategy: shared_tiled — the block stages 1024-edge tiles (each edge's endpoints as one int4) in shared memory; each thread keeps 4 points in registers and tests them against every staged edge
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPts = 4;     // points per thread
constexpr int kTile = 1024; // edges per shared-memory tile

__global__ void __launch_bounds__(kThreads)
pip_tiled_kernel(int n, int nv, const int* __restrict__ px, const int* __restrict__ py,
                 const int* __restrict__ vx, const int* __restrict__ vy, int* __restrict__ inside) {
  __shared__ int4 edge[kTile];  // (xk, yk, xj, yj)
  const long long base = (long long)blockIdx.x * (kThreads * kPts);
  long long x[kPts], y[kPts];
  int c[kPts];
#pragma unroll
  for (int p = 0; p < kPts; ++p) {
    long long i = base + p * kThreads + threadIdx.x;  // coalesced per p
    bool ok = i < n;
    x[p] = ok ? __ldg(px + i) : 0;
    y[p] = ok ? __ldg(py + i) : 0;
    c[p] = 0;
  }
  for (int t0 = 0; t0 < nv; t0 += kTile) {
    const int cnt = min(kTile, nv - t0);
    __syncthreads();
    for (int e = threadIdx.x; e < cnt; e += kThreads) {
      const int k = t0 + e;
      const int j = (k == 0) ? nv - 1 : k - 1;
      edge[e] = make_int4(__ldg(vx + k), __ldg(vy + k), __ldg(vx + j), __ldg(vy + j));
    }
    __syncthreads();
    for (int e = 0; e < cnt; ++e) {
      const int4 g = edge[e];  // broadcast read
      const long long xk = g.x, yk = g.y, xj = g.z, yj = g.w;
      const long long dy = yj - yk, dx = xj - xk;
      const bool up = yj > yk;
#pragma unroll
      for (int p = 0; p < kPts; ++p) {
        if ((yk > y[p]) != (yj > y[p])) {
          const long long lhs = (x[p] - xk) * dy;
          const long long rhs = dx * (y[p] - yk);
          c[p] ^= (int)(up ? (lhs < rhs) : (lhs > rhs));
        }
      }
    }
  }
#pragma unroll
  for (int p = 0; p < kPts; ++p) {
    long long i = base + p * kThreads + threadIdx.x;
    if (i < n) inside[i] = c[p];
  }
}

}  // namespace

extern "C" void point_in_polygon(int n, int nv, const int* px, const int* py, const int* vx, const int* vy,
                                 int* inside, cudaStream_t stream) {
  if (n <= 0) return;
  const long long per_block = (long long)kThreads * kPts;
  const long long blocks = ((long long)n + per_block - 1) / per_block;
  pip_tiled_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, nv, px, py, vx, vy, inside);
}
