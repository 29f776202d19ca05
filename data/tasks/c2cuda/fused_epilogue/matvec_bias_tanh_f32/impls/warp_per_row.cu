// strategy: warp_per_row — one warp per row (grid-stride over rows), lanes stride the columns for coalesced reads of A, two independent accumulators per lane, butterfly shuffle reduction, lane 0 applies bias and tanh
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
matvec_bias_tanh_warp_kernel(int rows, int cols, float alpha, const float* __restrict__ A, const float* __restrict__ x,
                             const float* __restrict__ b, float* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const float* ar = A + r * cols;
    float s0 = 0.0f, s1 = 0.0f;
    int c = lane;
    for (; c + 32 < cols; c += 64) {
      s0 += __ldcs(ar + c) * __ldg(x + c);
      s1 += __ldcs(ar + c + 32) * __ldg(x + c + 32);
    }
    if (c < cols) s0 += __ldcs(ar + c) * __ldg(x + c);
    float s = s0 + s1;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) y[r] = tanhf(alpha * s + b[r]);
  }
}

}  // namespace

extern "C" void matvec_bias_tanh_f32(int rows, int cols, float alpha, const float* A, const float* x, const float* b,
                                     float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 1;
  long long blocks = ((long long)rows + (kThreads / 32) - 1) / (kThreads / 32);
  if (blocks > 32LL * sms) blocks = 32LL * sms;
  matvec_bias_tanh_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, cols, alpha, A, x, b, y);
}
