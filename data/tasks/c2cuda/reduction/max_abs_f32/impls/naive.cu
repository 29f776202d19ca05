// strategy: naive (weak) — one 256-thread block per segment scans it, then a shared-memory tree with divergent interleaved addressing
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void maxabs_naive_kernel(int batch, int n, const float* x, float* out) {
  __shared__ float s[kThreads];
  unsigned int t = threadIdx.x;
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    const float* seg = x + (long long)b * n;
    float m = 0.0f;
    for (long long i = t; i < n; i += kThreads) m = fmaxf(m, fabsf(seg[i]));
    s[t] = m;
    __syncthreads();
    for (unsigned int step = 1; step < kThreads; step *= 2) {
      if (t % (2 * step) == 0) s[t] = fmaxf(s[t], s[t + step]);
      __syncthreads();
    }
    if (t == 0) out[b] = s[0];
    __syncthreads();
  }
}

extern "C" void max_abs_f32(int batch, int n, const float* x, float* out, cudaStream_t stream) {
  if (batch <= 0) return;
  int blocks = batch < 65535 ? batch : 65535;
  maxabs_naive_kernel<<<blocks, kThreads, 0, stream>>>(batch, n, x, out);
}
