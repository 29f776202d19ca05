// strategy: naive (weak) — each thread walks a contiguous chunk of 64 elements, so a warp's accesses are 256 B apart (uncoalesced)
#include <cuda_runtime.h>

#define CHUNK 64

__global__ void stencil1d_3pt_naive_kernel(int n, float a, float b, float c, const float* in, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long start = t * CHUNK;
  if (start >= n) return;
  long long end = start + CHUNK < n ? start + CHUNK : n;
  for (long long i = start; i < end; ++i) {
    float l = in[i > 0 ? i - 1 : 0];
    float x = in[i];
    float r = in[i + 1 < n ? i + 1 : n - 1];
    out[i] = a * l + b * x + c * r;
  }
}

extern "C" void stencil1d_3pt(int n, float a, float b, float c, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  long long threads = ((long long)n + CHUNK - 1) / CHUNK;
  int block = 128;
  unsigned grid = (unsigned)((threads + block - 1) / block);
  stencil1d_3pt_naive_kernel<<<grid, block, 0, stream>>>(n, a, b, c, in, out);
}
