// strategy: naive (weak) — one thread per output walks all taps, every h[k] and x[i-k] read straight from global memory, no reuse across threads
#include <cuda_runtime.h>

__global__ void fir_naive_kernel(int n, int taps, const float* h, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int kmax = min(taps - 1, i);
  float s = 0.0f;
  for (int k = 0; k <= kmax; ++k) s += h[k] * x[i - k];
  y[i] = s;
}

extern "C" void fir_causal_f32(int n, int taps, const float* h, const float* x, float* y, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  fir_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, taps, h, x, y);
}
