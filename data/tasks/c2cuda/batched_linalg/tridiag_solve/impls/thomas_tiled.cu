// strategy: thomas_tiled — one lane per system running the O(n) Thomas recurrence, made coalesced: a warp owns 32 systems and walks them in 32-row chunks that are transposed through padded shared-memory tiles; the forward-sweep coefficients live in an interleaved (row-major over systems) scratch so those accesses coalesce too
#include <cuda_runtime.h>

namespace {

constexpr int kWarps = 2;
constexpr int kLd = 33;

__global__ void __launch_bounds__(kWarps * 32) tridiag_tiled_kernel(int batch, int n, const float* __restrict__ a,
                                                                    const float* __restrict__ b, const float* __restrict__ c,
                                                                    const float* __restrict__ d, float* __restrict__ cp,
                                                                    float* __restrict__ dp, float* __restrict__ x) {
  __shared__ float tiles[kWarps][4][32 * kLd];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const long long s0 = ((long long)blockIdx.x * kWarps + wid) * 32;
  if (s0 >= batch) return;  // the whole warp leaves together
  const int nsys = (int)min(32LL, (long long)batch - s0);
  const long long sys = s0 + lane;
  const bool valid = lane < nsys;
  float* ta = tiles[wid][0];
  float* tb = tiles[wid][1];
  float* tc = tiles[wid][2];
  float* td = tiles[wid][3];

  float cprev = 0.0f, dprev = 0.0f;
  for (int i0 = 0; i0 < n; i0 += 32) {
    const int len = min(32, n - i0);
    if (lane < len) {
      for (int r = 0; r < nsys; ++r) {
        const long long g = (s0 + r) * n + i0 + lane;
        ta[r * kLd + lane] = __ldcs(a + g);
        tb[r * kLd + lane] = __ldcs(b + g);
        tc[r * kLd + lane] = __ldcs(c + g);
        td[r * kLd + lane] = __ldcs(d + g);
      }
    }
    __syncwarp();
    if (valid) {
      for (int k = 0; k < len; ++k) {
        const int i = i0 + k;
        const float ai = i > 0 ? ta[lane * kLd + k] : 0.0f;
        const float ci = i < n - 1 ? tc[lane * kLd + k] : 0.0f;
        const float m = tb[lane * kLd + k] - ai * cprev;
        cprev = ci / m;
        dprev = (td[lane * kLd + k] - ai * dprev) / m;
        cp[(long long)i * batch + sys] = cprev;
        dp[(long long)i * batch + sys] = dprev;
      }
    }
    __syncwarp();  // tiles are reloaded next chunk
  }

  float xnext = 0.0f;
  for (int i0 = ((n - 1) / 32) * 32; i0 >= 0; i0 -= 32) {
    const int len = min(32, n - i0);
    if (valid) {
      for (int k = len - 1; k >= 0; --k) {
        const long long g = (long long)(i0 + k) * batch + sys;
        xnext = dp[g] - cp[g] * xnext;  // cp of the last row is 0
        ta[lane * kLd + k] = xnext;
      }
    }
    __syncwarp();
    if (lane < len)
      for (int r = 0; r < nsys; ++r) __stcs(x + (s0 + r) * n + i0 + lane, ta[r * kLd + lane]);
    __syncwarp();
  }
}

}  // namespace

extern "C" void tridiag_solve(int batch, int n, const float* a, const float* b, const float* c, const float* d, float* x,
                              cudaStream_t stream) {
  if (batch <= 0 || n <= 0) return;
  float* scratch = nullptr;
  cudaMallocAsync(&scratch, sizeof(float) * 2 * (size_t)batch * n, stream);
  float* cp = scratch;
  float* dp = scratch + (size_t)batch * n;
  const long long warps = ((long long)batch + 31) / 32;
  const long long blocks = (warps + kWarps - 1) / kWarps;
  tridiag_tiled_kernel<<<(unsigned int)blocks, kWarps * 32, 0, stream>>>(batch, n, a, b, c, d, cp, dp, x);
  cudaFreeAsync(scratch, stream);
}
