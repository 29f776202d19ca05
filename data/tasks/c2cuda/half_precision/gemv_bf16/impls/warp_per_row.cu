// strategy: warp_per_row — one warp per row (grid-stride over rows), lanes stride the 32-bit words that cover the row (a row of odd cols may begin and end mid-word: the out-of-row half is skipped), both bf16 halves decoded from each coalesced word load, butterfly shuffle reduction
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ float bf16_weight(unsigned int p16) {
  return __uint_as_float(((p16 & 0x81FFu) | 0x3E00u) << 16);
}

__global__ void __launch_bounds__(kThreads)
gemv_bf16_warp_kernel(int rows, int cols, const unsigned int* __restrict__ A, const float* __restrict__ x,
                      float* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const long long s = r * cols, e = s + cols;  // element range [s, e)
    const long long w0 = s >> 1, w1 = (e + 1) >> 1;  // words [w0, w1)
    float acc = 0.0f;
    for (long long w = w0 + lane; w < w1; w += 32) {
      const unsigned int word = __ldg(A + w);
      const long long i0 = 2 * w;  // the low half's element index
      if (i0 >= s) acc = fmaf(bf16_weight(word & 0xFFFFu), __ldg(x + (i0 - s)), acc);
      if (i0 + 1 < e) acc = fmaf(bf16_weight(word >> 16), __ldg(x + (i0 + 1 - s)), acc);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) y[r] = acc;
  }
}

}  // namespace

extern "C" void gemv_bf16(int rows, int cols, const unsigned int* A, const float* x, float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 1;
  long long blocks = ((long long)rows + (kThreads / 32) - 1) / (kThreads / 32);
  if (blocks > 32LL * sms) blocks = 32LL * sms;
  gemv_bf16_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, cols, A, x, y);
}
