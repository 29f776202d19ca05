// strategy: warp_online — one warp per row (grid-stride over rows); a single read pass keeps a per-lane online (running max, rescaled sum) pair, lanes merge the pairs with xor shuffles, a second coalesced pass writes exp(x - max) / sum
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_warp_kernel(int rows, int cols, const float* __restrict__ x, float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nw = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = w; r < rows; r += nw) {
    const float* xr = x + r * (long long)cols;
    float* o = out + r * (long long)cols;
    float m = -INFINITY, s = 0.f;
    for (int c = lane; c < cols; c += 32) {
      const float v = xr[c];
      if (v > m) {
        s = s * expf(m - v) + 1.f;  // expf(-inf) = 0 on the first element
        m = v;
      } else {
        s += expf(v - m);
      }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      const float m2 = __shfl_xor_sync(0xffffffffu, m, off);
      const float s2 = __shfl_xor_sync(0xffffffffu, s, off);
      const float mn = fmaxf(m, m2);
      // lanes that saw no element carry (-inf, 0): guard the -inf - -inf = NaN case
      const float a = (m == -INFINITY) ? 0.f : s * expf(m - mn);
      const float b = (m2 == -INFINITY) ? 0.f : s2 * expf(m2 - mn);
      m = mn;
      s = a + b;
    }
    const float inv = 1.f / s;
    for (int c = lane; c < cols; c += 32) o[c] = expf(xr[c] - m) * inv;
  }
}

extern "C" void softmax_rows_f32(int rows, int cols, const float* x, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)rows + 7) / 8;
  long long cap = (long long)sms * 16;
  softmax_warp_kernel<<<(int)(need < cap ? need : cap), threads, 0, stream>>>(rows, cols, x, out);
}
