// strategy: naive (weak) — one thread per output walks all taps alone, h and the strided x window read straight from global memory (neighbouring threads dec samples apart, no staging)
#include <cuda_runtime.h>

__global__ void firdec_naive_kernel(int nout, int taps, int dec, const float* h, const float* x, float* y) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= nout) return;
  const float* xs = x + (long long)q * dec;
  float s = 0.0f;
  for (int k = 0; k < taps; ++k) s += h[k] * xs[k];
  y[q] = s;
}

extern "C" void fir_decimate_f32(int nout, int taps, int dec, const float* h, const float* x, float* y,
                                 cudaStream_t stream) {
  if (nout <= 0) return;
  const int threads = 256;
  firdec_naive_kernel<<<(nout + threads - 1) / threads, threads, 0, stream>>>(nout, taps, dec, h, x, y);
}
