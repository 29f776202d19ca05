// strategy: naive (weak) — one 256-thread block per segment walks the whole segment, then an interleaved-addressing shared-memory tree with divergent modulo tests
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void sum_naive_kernel(int batch, int n, const float* x, float* out) {
  __shared__ double s[kThreads];
  unsigned int t = threadIdx.x;
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    const float* seg = x + (long long)b * n;
    double acc = 0.0;  // double so that ~n/256 sequential additions per thread stay accurate
    for (long long i = t; i < n; i += kThreads) acc += seg[i];
    s[t] = acc;
    __syncthreads();
    for (unsigned int step = 1; step < kThreads; step *= 2) {
      if (t % (2 * step) == 0) s[t] += s[t + step];
      __syncthreads();
    }
    if (t == 0) out[b] = (float)s[0];
    __syncthreads();  // s[] is reused by the next segment
  }
}

extern "C" void sum_f32(int batch, int n, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0) return;
  int blocks = batch < 65535 ? batch : 65535;
  sum_naive_kernel<<<blocks, kThreads, 0, stream>>>(batch, n, x, out);
}
