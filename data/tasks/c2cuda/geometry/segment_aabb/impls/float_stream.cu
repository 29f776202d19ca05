// strategy: float_stream — the segment's points are treated as one flat float run [3b, 3e): 16-lane half-warps (two segments per warp) read consecutive floats with perfectly coalesced loads, each lane tracks the component (index mod 3) it is on, which rotates by 16 mod 3 = 1 per step, keeping per-component extrema in registers; a 3-way-aware shuffle fold finishes the box
#include <cuda_runtime.h>
#include <float.h>

namespace {

constexpr int kThreads = 256;
constexpr int kGroup = 16;  // lanes per segment

__global__ void __launch_bounds__(kThreads)
aabb_stream_kernel(int nseg, const int* __restrict__ offs, const float* __restrict__ pts, float* __restrict__ box) {
  const int sub = threadIdx.x & (kGroup - 1);
  const int groups_total = (gridDim.x * blockDim.x) / kGroup;
  const int g0 = (blockIdx.x * blockDim.x + threadIdx.x) / kGroup;
  const int warp_first = g0 & ~1;  // the two groups of one warp share the trip count
  for (int base = warp_first; base < nseg; base += groups_total) {
    const int s = base + (g0 - warp_first);
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    int b = 0, e = 0;
    if (s < nseg) {
      b = __ldg(offs + s);
      e = __ldg(offs + s + 1);
      const long long f0 = 3LL * b, f1 = 3LL * e;
      int c = sub % 3;  // component of float f0 + sub (f0 is a multiple of 3)
      for (long long f = f0 + sub; f < f1; f += kGroup) {
        const float x = __ldcs(pts + f);
        // branch-free update of the component c; the others keep their values
        lo[0] = (c == 0) ? fminf(lo[0], x) : lo[0];
        lo[1] = (c == 1) ? fminf(lo[1], x) : lo[1];
        lo[2] = (c == 2) ? fminf(lo[2], x) : lo[2];
        hi[0] = (c == 0) ? fmaxf(hi[0], x) : hi[0];
        hi[1] = (c == 1) ? fmaxf(hi[1], x) : hi[1];
        hi[2] = (c == 2) ? fmaxf(hi[2], x) : hi[2];
        c = (c == 2) ? 0 : c + 1;  // 16 = 5*3 + 1
      }
    }
#pragma unroll
    for (int off = kGroup / 2; off > 0; off >>= 1) {
#pragma unroll
      for (int k = 0; k < 3; ++k) {
        lo[k] = fminf(lo[k], __shfl_xor_sync(0xffffffffu, lo[k], off, kGroup));
        hi[k] = fmaxf(hi[k], __shfl_xor_sync(0xffffffffu, hi[k], off, kGroup));
      }
    }
    if (s < nseg && sub < 6) {
      float v = (sub == 0) ? lo[0] : (sub == 1) ? lo[1] : (sub == 2) ? lo[2] : (sub == 3) ? hi[0] : (sub == 4) ? hi[1] : hi[2];
      box[6 * (long long)s + sub] = (e > b) ? v : 0.0f;
    }
  }
}

}  // namespace

extern "C" void segment_aabb(int nseg, int n, const int* offs, const float* pts, float* box, cudaStream_t stream) {
  (void)n;
  if (nseg <= 0) return;
  const int groups_per_block = kThreads / kGroup;  // 16 segments per block
  long long blocks = ((long long)nseg + groups_per_block - 1) / groups_per_block;
  if (blocks > 16384) blocks = 16384;  // the loop strides over the rest
  aabb_stream_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(nseg, offs, pts, box);
}
