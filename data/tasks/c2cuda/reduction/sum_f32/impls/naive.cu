// strategy: naive (weak) — a single block of 256 threads strides over the whole array, then an interleaved-addressing shared-memory tree with divergent modulo tests
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void sum_naive_kernel(int n, const float* x, float* out) {
  __shared__ double s[kThreads];
  unsigned int t = threadIdx.x;
  double acc = 0.0;  // double so that ~n/256 sequential additions per thread stay accurate
  for (long long i = t; i < n; i += kThreads) acc += x[i];
  s[t] = acc;
  __syncthreads();
  for (unsigned int step = 1; step < kThreads; step *= 2) {
    if (t % (2 * step) == 0) s[t] += s[t + step];
    __syncthreads();
  }
  if (t == 0) out[0] = (float)s[0];
}

extern "C" void sum_f32(int n, const float* x, float* out, cudaStream_t stream) {
  // n == 0 still launches one block, which writes 0 to out[0].
  sum_naive_kernel<<<1, kThreads, 0, stream>>>(n, x, out);
}
