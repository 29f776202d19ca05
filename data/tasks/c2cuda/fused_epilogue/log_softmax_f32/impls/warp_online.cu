// strategy: warp_online — one warp per row (grid-stride), each lane keeps a running (max, rescaled sum) pair so the row is read only once for the statistics, pairs merged with a shuffle butterfly, then a coalesced write pass
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ void merge(float& m1, float& s1, float m2, float s2) {
  const float mx = fmaxf(m1, m2);
  const float a = (m1 == -INFINITY) ? 0.0f : s1 * expf(m1 - mx);
  const float b = (m2 == -INFINITY) ? 0.0f : s2 * expf(m2 - mx);
  m1 = mx;
  s1 = a + b;
}

__global__ void __launch_bounds__(kThreads)
log_softmax_warp_kernel(int rows, int cols, const float* __restrict__ x, float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long warps_total = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += warps_total) {
    const float* xr = x + r * cols;
    float* orow = out + r * cols;
    float mx = -INFINITY, sm = 0.0f;
    for (int c = lane; c < cols; c += 32) {
      const float v = __ldg(xr + c);
      if (v > mx) {
        sm = sm * expf(mx - v) + 1.0f;  // first element: mx = -inf gives expf(-inf) = 0
        mx = v;
      } else {
        sm += expf(v - mx);
      }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      const float om = __shfl_xor_sync(0xffffffffu, mx, off);
      const float os = __shfl_xor_sync(0xffffffffu, sm, off);
      merge(mx, sm, om, os);
    }
    const float lse = logf(sm);
    for (int c = lane; c < cols; c += 32) orow[c] = (__ldg(xr + c) - mx) - lse;
  }
}

}  // namespace

extern "C" void log_softmax_f32(int rows, int cols, const float* x, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 1;
  long long blocks = ((long long)rows + (kThreads / 32) - 1) / (kThreads / 32);
  if (blocks > 32LL * sms) blocks = 32LL * sms;
  log_softmax_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(rows, cols, x, out);
}
