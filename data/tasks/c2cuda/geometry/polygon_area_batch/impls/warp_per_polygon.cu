// strategy: warp_per_polygon — one warp per polygon, lanes stride its vertices with coalesced float2 loads (successor loads hit the same lines), butterfly shuffle reduction, grid-stride over polygons
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
area_warp_kernel(int npoly, const int* __restrict__ offs, const float2* __restrict__ v, float* __restrict__ area) {
  const int lane = threadIdx.x & 31;
  const int warps_total = (gridDim.x * blockDim.x) >> 5;
  for (int p = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; p < npoly; p += warps_total) {  // warp-uniform
    const int b = __ldg(offs + p), e = __ldg(offs + p + 1);
    float s0 = 0.0f, s1 = 0.0f;
    int k = b + lane;
    for (; k + 32 < e; k += 64) {  // two independent vertices per lane per step
      const float2 a0 = __ldg(v + k), a1 = __ldg(v + k + 1);
      const int k2 = k + 32;
      const float2 c0 = __ldg(v + k2);
      const float2 c1 = __ldg(v + ((k2 + 1 < e) ? k2 + 1 : b));
      s0 = fmaf(a0.x, a1.y, s0); s0 = fmaf(-a1.x, a0.y, s0);
      s1 = fmaf(c0.x, c1.y, s1); s1 = fmaf(-c1.x, c0.y, s1);
    }
    if (k < e) {
      const float2 a0 = __ldg(v + k);
      const float2 a1 = __ldg(v + ((k + 1 < e) ? k + 1 : b));
      s0 = fmaf(a0.x, a1.y, s0); s0 = fmaf(-a1.x, a0.y, s0);
    }
    float s = s0 + s1;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) area[p] = 0.5f * s;
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

extern "C" void polygon_area_batch(int npoly, int nv, const int* offs, const float* xy, float* area,
                                   cudaStream_t stream) {
  (void)nv;
  if (npoly <= 0) return;
  long long blocks = ((long long)npoly + (kThreads / 32) - 1) / (kThreads / 32);
  const long long cap = 32LL * sm_count();
  if (blocks > cap) blocks = cap;
  area_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(npoly, offs, reinterpret_cast<const float2*>(xy),
                                                                   area);
}
