// strategy: naive (weak) — one thread per signal performs the bit-reversal copy and every butterfly stage in global memory (uncoalesced, strided per thread), twiddles recomputed per butterfly
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int fft_rev(unsigned int v, int logn) {
  return logn == 0 ? 0u : (__brev(v) >> (32 - logn));
}

__global__ void fft_naive_kernel(int batch, int logn, const float* x, float* y) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const int n = 1 << logn;
  const float* xs = x + 2 * (long long)b * n;
  float* ys = y + 2 * (long long)b * n;
  for (int j = 0; j < n; ++j) {
    const unsigned int r = fft_rev((unsigned int)j, logn);
    ys[2 * r] = xs[2 * j];
    ys[2 * r + 1] = xs[2 * j + 1];
  }
  for (int hs = 1; hs < n; hs <<= 1) {
    for (int base = 0; base < n; base += 2 * hs) {
      for (int k = 0; k < hs; ++k) {
        float wr, wi;
        sincospif(-(float)k / (float)hs, &wi, &wr);
        const int i0 = base + k, i1 = i0 + hs;
        const float xr = ys[2 * i1], xi = ys[2 * i1 + 1];
        const float br = xr * wr - xi * wi, bi = xr * wi + xi * wr;
        const float ar = ys[2 * i0], ai = ys[2 * i0 + 1];
        ys[2 * i0] = ar + br;
        ys[2 * i0 + 1] = ai + bi;
        ys[2 * i1] = ar - br;
        ys[2 * i1 + 1] = ai - bi;
      }
    }
  }
}

extern "C" void fft_radix2_batch(int batch, int logn, const float* x, float* y, cudaStream_t stream) {
  if (batch <= 0) return;
  const int threads = 64;
  fft_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, logn, x, y);
}
