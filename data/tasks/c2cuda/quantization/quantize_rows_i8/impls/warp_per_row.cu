// strategy: warp_per_row — one warp per row: lanes stride the row (coalesced), butterfly __shfl_xor max-reduction of |x|, then a second coalesced pass quantises from L2
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ signed char quant1(float v, float s) {
  if (s == 0.0f) return 0;
  float t = rintf(__fdiv_rn(v, s));
  t = fminf(fmaxf(t, -127.0f), 127.0f);
  return (signed char)(int)t;
}

__global__ void __launch_bounds__(kThreads)
quantize_rows_i8_warp_kernel(int rows, int cols, const float* __restrict__ x, signed char* __restrict__ q,
                             float* __restrict__ scale) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const float* xr = x + r * cols;
    signed char* qr = q + r * cols;
    float amax = 0.0f;
    for (int c = lane; c < cols; c += 32) amax = fmaxf(amax, fabsf(__ldg(xr + c)));
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
    const float s = __fdiv_rn(amax, 127.0f);
    if (lane == 0) scale[r] = s;
    for (int c = lane; c < cols; c += 32) qr[c] = quant1(__ldg(xr + c), s);
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

extern "C" void quantize_rows_i8(int rows, int cols, const float* x, signed char* q, float* scale,
                                 cudaStream_t stream) {
  if (rows <= 0) return;
  const int warps_per_block = kThreads / 32;
  long long blocks = ((long long)rows + warps_per_block - 1) / warps_per_block;
  const long long max_blocks = 32LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  quantize_rows_i8_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, cols, x, q, scale);
}
