// strategy: naive (weak) — each thread handles a contiguous chunk of 64 elements with a branch per element; strided, uncoalesced accesses
#include <cuda_runtime.h>

static constexpr int kChunk = 64;

__global__ void mcs_naive_kernel(int n, int scale, int lo, int hi, const int* x, const unsigned char* mask,
                                 int* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long begin = t * kChunk;
  long long end = begin + kChunk;
  if (end > n) end = n;
  for (long long i = begin; i < end; ++i) {
    if (mask[i]) {
      int v = x[i] * scale;
      if (v < lo) v = lo;
      if (v > hi) v = hi;
      out[i] = v;
    } else {
      out[i] = -x[i];
    }
  }
}

extern "C" void masked_clamp_scale_i32(int n, int scale, int lo, int hi, const int* x,
                                       const unsigned char* mask, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  long long chunks = ((long long)n + kChunk - 1) / kChunk;
  int blocks = (int)((chunks + threads - 1) / threads);
  mcs_naive_kernel<<<blocks, threads, 0, stream>>>(n, scale, lo, hi, x, mask, out);
}
