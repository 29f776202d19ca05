// strategy: naive (weak) — one block of 256 threads walks the whole vectors, then a shared-memory tree with interleaved, divergent addressing
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void dot_naive_kernel(int n, const double* x, const double* y, double* out) {
  __shared__ double s[kThreads];
  unsigned int t = threadIdx.x;
  double acc = 0.0;
  for (long long i = t; i < n; i += kThreads) acc += x[i] * y[i];
  s[t] = acc;
  __syncthreads();
  for (unsigned int step = 1; step < kThreads; step *= 2) {
    if (t % (2 * step) == 0) s[t] += s[t + step];
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}

extern "C" void dot_f64(int n, const double* x, const double* y, double* out, cudaStream_t stream) {
  // n == 0 still launches one block, which writes 0.0 to out[0].
  dot_naive_kernel<<<1, kThreads, 0, stream>>>(n, x, y, out);
}
