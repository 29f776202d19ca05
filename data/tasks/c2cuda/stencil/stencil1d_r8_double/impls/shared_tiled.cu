// strategy: shared_tiled — each block stages 1024 outputs' inputs plus an 8-element halo per side in shared memory (zero-padded), weights in registers; each thread produces 4 outputs
#include <cuda_runtime.h>

#define R 8
#define BLOCK 256
#define PER_THREAD 4
#define TILE (BLOCK * PER_THREAD)

__global__ void __launch_bounds__(BLOCK) stencil1d_r8_shared_kernel(int n, const double* __restrict__ w,
                                                                    const double* __restrict__ in,
                                                                    double* __restrict__ out) {
  __shared__ double tile[TILE + 2 * R];
  double wr[2 * R + 1];
#pragma unroll
  for (int k = 0; k <= 2 * R; ++k) wr[k] = __ldg(w + k);
  long long base = (long long)blockIdx.x * TILE;
  // tile[k] = in[base - R + k], zero outside the array; coalesced loads
  for (int k = threadIdx.x; k < TILE + 2 * R; k += BLOCK) {
    long long g = base - R + k;
    tile[k] = (g >= 0 && g < n) ? in[g] : 0.0;
  }
  __syncthreads();
#pragma unroll
  for (int p = 0; p < PER_THREAD; ++p) {
    int local = p * BLOCK + threadIdx.x;  // consecutive threads -> consecutive outputs
    long long i = base + local;
    if (i < n) {
      double s = 0.0;
#pragma unroll
      for (int k = 0; k <= 2 * R; ++k) s = fma(wr[k], tile[local + k], s);
      out[i] = s;
    }
  }
}

extern "C" void stencil1d_r8_double(int n, const double* w, const double* in, double* out, cudaStream_t stream) {
  if (n <= 0) return;
  unsigned grid = (unsigned)(((long long)n + TILE - 1) / TILE);
  stencil1d_r8_shared_kernel<<<grid, BLOCK, 0, stream>>>(n, w, in, out);
}
