// strategy: warp_transpose — each warp owns 32 channels and walks time in 32-sample tiles: coalesced 128-byte row loads into a padded shared tile, transpose so each lane runs its channel's recursion from shared memory, coalesced write-back of the filtered tile
#include <cuda_runtime.h>

namespace {

constexpr int kWarps = 4;

__global__ void __launch_bounds__(32 * kWarps) biquad_transpose_kernel(int nch, int len, float b0, float b1, float b2,
                                                                       float a1, float a2, const float* __restrict__ x,
                                                                       float* __restrict__ y) {
  __shared__ float tile[kWarps][32][33];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const int c0 = (blockIdx.x * kWarps + wid) * 32;
  if (c0 >= nch) return;  // whole warp leaves together
  float (*tl)[33] = tile[wid];
  float x1 = 0.0f, x2 = 0.0f, y1 = 0.0f, y2 = 0.0f;
  for (int t0 = 0; t0 < len; t0 += 32) {
    const int t = t0 + lane;
#pragma unroll 4
    for (int r = 0; r < 32; ++r) {
      const int c = c0 + r;
      tl[r][lane] = (c < nch && t < len) ? __ldg(x + (long long)c * len + t) : 0.0f;
    }
    __syncwarp();
    // lane = channel c0 + lane; samples beyond len are zero padding and never stored
    const int steps = min(32, len - t0);
    for (int s = 0; s < steps; ++s) {
      const float x0 = tl[lane][s];
      const float y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      tl[lane][s] = y0;
      x2 = x1;
      x1 = x0;
      y2 = y1;
      y1 = y0;
    }
    __syncwarp();
#pragma unroll 4
    for (int r = 0; r < 32; ++r) {
      const int c = c0 + r;
      if (c < nch && t < len) y[(long long)c * len + t] = tl[r][lane];
    }
    __syncwarp();
  }
}

}  // namespace

extern "C" void biquad_iir(int nch, int len, float b0, float b1, float b2, float a1, float a2, const float* x,
                           float* y, cudaStream_t stream) {
  if (nch <= 0 || len <= 0) return;
  const int warps = (nch + 31) / 32;
  biquad_transpose_kernel<<<(warps + kWarps - 1) / kWarps, 32 * kWarps, 0, stream>>>(nch, len, b0, b1, b2, a1, a2,
                                                                                       x, y);
}
