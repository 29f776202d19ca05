// strategy: warp_per_segment — one warp per segment, lane l takes points b+l, b+l+32, ... (three loads per point, 384 contiguous bytes per warp step), six running extrema per lane folded with butterfly shuffles; lanes 0-5 write the box
#include <cuda_runtime.h>
#include <float.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
aabb_warp_kernel(int nseg, const int* __restrict__ offs, const float* __restrict__ pts, float* __restrict__ box) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  for (int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; s < nseg; s += warps_total) {  // warp-uniform
    const int b = __ldg(offs + s), e = __ldg(offs + s + 1);
    float lx = FLT_MAX, ly = FLT_MAX, lz = FLT_MAX, hx = -FLT_MAX, hy = -FLT_MAX, hz = -FLT_MAX;
    for (int k = b + lane; k < e; k += 32) {
      const float* q = pts + 3 * (long long)k;
      const float x = __ldcs(q), y = __ldcs(q + 1), z = __ldcs(q + 2);
      lx = fminf(lx, x); ly = fminf(ly, y); lz = fminf(lz, z);
      hx = fmaxf(hx, x); hy = fmaxf(hy, y); hz = fmaxf(hz, z);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      lx = fminf(lx, __shfl_xor_sync(0xffffffffu, lx, off));
      ly = fminf(ly, __shfl_xor_sync(0xffffffffu, ly, off));
      lz = fminf(lz, __shfl_xor_sync(0xffffffffu, lz, off));
      hx = fmaxf(hx, __shfl_xor_sync(0xffffffffu, hx, off));
      hy = fmaxf(hy, __shfl_xor_sync(0xffffffffu, hy, off));
      hz = fmaxf(hz, __shfl_xor_sync(0xffffffffu, hz, off));
    }
    if (lane < 6) {
      const float vals[6] = {lx, ly, lz, hx, hy, hz};
      box[6 * (long long)s + lane] = (e > b) ? vals[lane] : 0.0f;
    }
  }
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

extern "C" void segment_aabb(int nseg, int n, const int* offs, const float* pts, float* box, cudaStream_t stream) {
  (void)n;
  if (nseg <= 0) return;
  long long blocks = ((long long)nseg + (kThreads / 32) - 1) / (kThreads / 32);
  const long long cap = 32LL * sm_count();
  if (blocks > cap) blocks = cap;
  aabb_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(nseg, offs, pts, box);
}
