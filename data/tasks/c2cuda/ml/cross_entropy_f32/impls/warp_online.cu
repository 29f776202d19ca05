// strategy: warp_online — one warp per row (grid-stride); a single coalesced read pass keeps a per-lane online logsumexp state (running max, rescaled sum), lanes merge states with xor shuffles; lane 0 subtracts the label's logit
#include <cuda_runtime.h>
#include <math.h>

__global__ void xent_warp_kernel(int rows, int classes, const float* __restrict__ logits, const int* __restrict__ labels,
                                 float* __restrict__ loss) {
  const int lane = threadIdx.x & 31;
  const long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nw = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = w; r < rows; r += nw) {
    const float* z = logits + r * (long long)classes;
    float m = -INFINITY, s = 0.f;
    for (int c = lane; c < classes; c += 32) {
      const float v = z[c];
      if (v > m) {
        s = s * expf(m - v) + 1.f;
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
      const float a = (m == -INFINITY) ? 0.f : s * expf(m - mn);
      const float b = (m2 == -INFINITY) ? 0.f : s2 * expf(m2 - mn);
      m = mn;
      s = a + b;
    }
    if (lane == 0) loss[r] = (m + logf(s)) - z[labels[r]];
  }
}

extern "C" void cross_entropy_f32(int rows, int classes, const float* logits, const int* labels, float* loss,
                                  cudaStream_t stream) {
  if (rows <= 0 || classes <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  long long need = ((long long)rows + 7) / 8;
  long long cap = (long long)sms * 16;
  xent_warp_kernel<<<(int)(need < cap ? need : cap), 256, 0, stream>>>(rows, classes, logits, labels, loss);
}
