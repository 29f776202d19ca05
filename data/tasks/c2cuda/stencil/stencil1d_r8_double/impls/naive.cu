// strategy: naive (weak) — each thread computes 32 consecutive outputs straight from global memory (strided, uncoalesced accesses, weights re-read every tap)
#include <cuda_runtime.h>

#define R 8
#define CHUNK 32

__global__ void stencil1d_r8_naive_kernel(int n, const double* w, const double* in, double* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long start = t * CHUNK;
  if (start >= n) return;
  long long end = start + CHUNK < n ? start + CHUNK : n;
  for (long long i = start; i < end; ++i) {
    double s = 0.0;
    for (int k = 0; k <= 2 * R; ++k) {
      long long j = i + k - R;
      if (j >= 0 && j < n) s += w[k] * in[j];
    }
    out[i] = s;
  }
}

extern "C" void stencil1d_r8_double(int n, const double* w, const double* in, double* out, cudaStream_t stream) {
  if (n <= 0) return;
  long long threads = ((long long)n + CHUNK - 1) / CHUNK;
  int block = 128;
  unsigned grid = (unsigned)((threads + block - 1) / block);
  stencil1d_r8_naive_kernel<<<grid, block, 0, stream>>>(n, w, in, out);
}
