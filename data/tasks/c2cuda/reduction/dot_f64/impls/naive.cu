// strategy: naive (weak) — one 256-thread block per segment, then a shared-memory tree with interleaved, divergent addressing
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void dot_naive_kernel(int batch, int n, const double* x, const double* y, double* out) {
  __shared__ double s[kThreads];
  unsigned int t = threadIdx.x;
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    const double* xs = x + (long long)b * n;
    const double* ys = y + (long long)b * n;
    double acc = 0.0;
    for (long long i = t; i < n; i += kThreads) acc += xs[i] * ys[i];
    s[t] = acc;
    __syncthreads();
    for (unsigned int step = 1; step < kThreads; step *= 2) {
      if (t % (2 * step) == 0) s[t] += s[t + step];
      __syncthreads();
    }
    if (t == 0) out[b] = s[0];
    __syncthreads();
  }
}

extern "C" void dot_f64(int batch, int n, const double* x, const double* y, double* out, cudaStream_t stream) {
  if (batch <= 0) return;
  int blocks = batch < 65535 ? batch : 65535;
  dot_naive_kernel<<<blocks, kThreads, 0, stream>>>(batch, n, x, y, out);
}
