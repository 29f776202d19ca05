// strategy: naive (weak) — one 256-thread block per segment scans it; shared-memory tree with divergent interleaved addressing
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void count_naive_kernel(int batch, int n, float thr, const float* x, int* out) {
  __shared__ int s[kThreads];
  unsigned int t = threadIdx.x;
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    const float* seg = x + (long long)b * n;
    int c = 0;
    for (long long i = t; i < n; i += kThreads)
      if (seg[i] > thr) ++c;
    s[t] = c;
    __syncthreads();
    for (unsigned int step = 1; step < kThreads; step *= 2) {
      if (t % (2 * step) == 0) s[t] += s[t + step];
      __syncthreads();
    }
    if (t == 0) out[b] = s[0];
    __syncthreads();
  }
}

extern "C" void count_above_f32(int batch, int n, float thr, const float* x, int* out, cudaStream_t stream) {
  if (batch <= 0) return;
  int blocks = batch < 65535 ? batch : 65535;
  count_naive_kernel<<<blocks, kThreads, 0, stream>>>(batch, n, thr, x, out);
}
