// strategy: naive (weak) — one block of 256 threads scans everything; shared-memory (value, index) tree with divergent interleaved addressing
#include <cuda_runtime.h>

static constexpr int kThreads = 256;

__global__ void argmin_naive_kernel(int n, const float* x, int* out) {
  __shared__ float sv[kThreads];
  __shared__ int si[kThreads];
  unsigned int t = threadIdx.x;
  float bv = 0.0f;
  int bi = -1;  // -1 = no element seen
  for (long long i = t; i < n; i += kThreads) {
    float v = x[i];
    if (bi < 0 || v < bv) {  // strict '<' keeps the earliest index within this thread
      bv = v;
      bi = (int)i;
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
  if (t == 0) out[0] = si[0];
}

extern "C" void argmin_f32(int n, const float* x, int* out, cudaStream_t stream) {
  // n == 0 still launches one block, which writes -1 to out[0].
  argmin_naive_kernel<<<1, kThreads, 0, stream>>>(n, x, out);
}
