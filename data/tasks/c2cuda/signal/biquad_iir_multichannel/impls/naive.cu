// strategy: naive (weak) — one thread per channel runs the whole recursion; neighbouring threads are len samples apart so every warp load/store touches 32 different lines, and only nch threads exist
#include <cuda_runtime.h>

__global__ void biquad_naive_kernel(int nch, int len, float b0, float b1, float b2, float a1, float a2,
                                    const float* x, float* y) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nch) return;
  const float* xc = x + (long long)c * len;
  float* yc = y + (long long)c * len;
  float x1 = 0.0f, x2 = 0.0f, y1 = 0.0f, y2 = 0.0f;
  for (int t = 0; t < len; ++t) {
    const float x0 = xc[t];
    const float y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    yc[t] = y0;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
  }
}

extern "C" void biquad_iir(int nch, int len, float b0, float b1, float b2, float a1, float a2, const float* x,
                           float* y, cudaStream_t stream) {
  if (nch <= 0 || len <= 0) return;
  const int threads = 128;
  biquad_naive_kernel<<<(nch + threads - 1) / threads, threads, 0, stream>>>(nch, len, b0, b1, b2, a1, a2, x, y);
}
