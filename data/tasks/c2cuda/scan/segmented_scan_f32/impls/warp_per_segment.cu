// strategy: warp_per_segment — one warp per segment, 128 elements per step (four coalesced 32-wide loads in flight, each scanned with warp shuffles) with the running carry broadcast from lane 31
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_inclusive(float v, int lane) {
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    float t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

__global__ void seg_warp(int nseg, const int* __restrict__ seg_start, const float* __restrict__ x,
                         float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long wid = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long s = wid; s < nseg; s += nwarps) {
    const long long lo = seg_start[s], hi = seg_start[s + 1];
    float carry = 0.f;
    for (long long c = lo; c < hi; c += 128) {
      float v[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        long long i = c + 32 * k + lane;
        v[k] = (i < hi) ? x[i] : 0.f;
      }
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        float inc = warp_inclusive(v[k], lane) + carry;
        long long i = c + 32 * k + lane;
        if (i < hi) out[i] = inc;
        carry = __shfl_sync(0xffffffffu, inc, 31);
      }
    }
  }
}

extern "C" void segmented_scan_f32(int n, int nseg, const int* seg_start, const float* x, float* out,
                                   cudaStream_t stream) {
  if (n <= 0 || nseg <= 0) return;
  const int threads = 256;
  const long long want = ((long long)nseg * 32 + threads - 1) / threads;
  const int blocks = (int)(want < 65536 ? want : 65536);
  seg_warp<<<blocks, threads, 0, stream>>>(nseg, seg_start, x, out);
}
