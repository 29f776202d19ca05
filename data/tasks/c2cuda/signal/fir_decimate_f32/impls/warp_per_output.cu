// strategy: warp_per_output — one warp per output (grid-stride), lanes split the taps so h and x are read as contiguous coalesced 128-byte runs, 4 independent accumulators per lane, butterfly shuffle reduction
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) firdec_warp_kernel(int nout, int taps, int dec, const float* __restrict__ h,
                                                               const float* __restrict__ x, float* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long q = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; q < nout; q += warps_total) {
    const float* xs = x + q * dec;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    int k = lane;
    for (; k + 96 < taps; k += 128) {
      s0 = fmaf(__ldg(h + k), __ldg(xs + k), s0);
      s1 = fmaf(__ldg(h + k + 32), __ldg(xs + k + 32), s1);
      s2 = fmaf(__ldg(h + k + 64), __ldg(xs + k + 64), s2);
      s3 = fmaf(__ldg(h + k + 96), __ldg(xs + k + 96), s3);
    }
    for (; k < taps; k += 32) s0 = fmaf(__ldg(h + k), __ldg(xs + k), s0);
    float s = (s0 + s1) + (s2 + s3);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) y[q] = s;
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

extern "C" void fir_decimate_f32(int nout, int taps, int dec, const float* h, const float* x, float* y,
                                 cudaStream_t stream) {
  if (nout <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)nout + warps_per_block - 1) / warps_per_block;
  const long long max_blocks = 32LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  firdec_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(nout, taps, dec, h, x, y);
}
