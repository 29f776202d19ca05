// strategy: warp_broadcast_fp64 — no shared memory: each lane loads one edge into registers and the warp broadcasts edges with __shfl_sync; cross products in double, which is exact here (|products| < 2^53) and runs on the FP64 pipes instead of emulated 64-bit integer multiplies; 8 points per thread
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPts = 8;  // points per thread

__global__ void __launch_bounds__(kThreads)
pip_shfl_kernel(int n, int nv, const int* __restrict__ px, const int* __restrict__ py,
                const int* __restrict__ vx, const int* __restrict__ vy, int* __restrict__ inside) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const long long base = ((long long)blockIdx.x * (kThreads / 32) + warp) * (32 * kPts);
  int xi[kPts], yi[kPts];
  unsigned int par = 0;  // bit p = parity of point p
#pragma unroll
  for (int p = 0; p < kPts; ++p) {
    long long i = base + p * 32 + lane;
    bool ok = i < n;
    xi[p] = ok ? __ldg(px + i) : 0;
    yi[p] = ok ? __ldg(py + i) : 0;
  }
  // every lane of the warp runs the same trip counts, so full-mask shuffles are legal
  for (int t0 = 0; t0 < nv; t0 += 32) {
    const int k = t0 + lane;
    int ek_x = 0, ek_y = 0, ej_x = 0, ej_y = 0;
    if (k < nv) {
      const int j = (k == 0) ? nv - 1 : k - 1;
      ek_x = __ldg(vx + k); ek_y = __ldg(vy + k);
      ej_x = __ldg(vx + j); ej_y = __ldg(vy + j);
    }
    const int cnt = min(32, nv - t0);
    for (int e = 0; e < cnt; ++e) {
      const int ax = __shfl_sync(0xffffffffu, ek_x, e);
      const int ay = __shfl_sync(0xffffffffu, ek_y, e);
      const int bx = __shfl_sync(0xffffffffu, ej_x, e);
      const int by = __shfl_sync(0xffffffffu, ej_y, e);
      const double dx = (double)(bx - ax);  // |difference| <= 2e6: exact in int32 and double
      const double dy = (double)(by - ay);
      const bool up = by > ay;
#pragma unroll
      for (int p = 0; p < kPts; ++p) {
        const bool straddle = (ay > yi[p]) != (by > yi[p]);
        // both products are integers below 2^43, so they and their comparison are exact in double
        const double lhs = (double)(xi[p] - ax) * dy;
        const double rhs = dx * (double)(yi[p] - ay);
        const bool right = up ? (lhs < rhs) : (lhs > rhs);
        par ^= (unsigned int)(straddle && right) << p;
      }
    }
  }
#pragma unroll
  for (int p = 0; p < kPts; ++p) {
    long long i = base + p * 32 + lane;
    if (i < n) inside[i] = (int)((par >> p) & 1u);
  }
}

}  // namespace

extern "C" void point_in_polygon(int n, int nv, const int* px, const int* py, const int* vx, const int* vy,
                                 int* inside, cudaStream_t stream) {
  if (n <= 0) return;
  const long long per_block = (long long)kThreads * kPts;
  const long long blocks = ((long long)n + per_block - 1) / per_block;
  pip_shfl_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, nv, px, py, vx, vy, inside);
}
