// strategy: naive (weak) — one 256-thread block per segment; shared-memory (value, index) tree with divergent interleaved addressing
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void argmin_naive_kernel(int batch, int n, const float* x, int* out) {
  __shared__ float sv[kThreads];
  __shared__ int si[kThreads];
  unsigned int t = threadIdx.x;
  for (int b = blockIdx.x; b < batch; b += gridDim.x) {
    const float* seg = x + (long long)b * n;
    float bv = 0.0f;
    int bi = -1;  // -1 = no element seen
    for (int i = t; i < n; i += kThreads) {
      float v = seg[i];
      if (bi < 0 || v < bv) {  // strict '<' keeps the earliest index within this thread
        bv = v;
        bi = i;
      }
    }
    sv[t] = bv;
    si[t] = bi;
    __syncthreads();
    for (unsigned int step = 1; step < kThreads; step *= 2) {
      if (t % (2 * step) == 0) {
        float ov = sv[t + step];
        int oi = si[t + step];
        if (oi >= 0 && (si[t] < 0 || ov < sv[t] || (ov == sv[t] && oi < si[t]))) {
          sv[t] = ov;
          si[t] = oi;
        }
      }
      __syncthreads();
    }
    if (t == 0) out[b] = si[0];
    __syncthreads();
  }
}

extern "C" void argmin_f32(int batch, int n, const float* x, int* out, cudaStream_t stream) {
  if (batch <= 0) return;
  int blocks = batch < 65535 ? batch : 65535;
  argmin_naive_kernel<<<blocks, kThreads, 0, stream>>>(batch, n, x, out);
}
