// strategy: shared_tiled — each block stages its 256-element tile plus a 1-element halo on each side in shared memory, one output per thread
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void stencil1d_3pt_shared_kernel(int n, float a, float b, float c, const float* __restrict__ in,
                                            float* __restrict__ out) {
  __shared__ float tile[BLOCK + 2];
  int base = blockIdx.x * BLOCK;
  int i = base + threadIdx.x;
  // tile[k] holds in[clamp(base - 1 + k)]
  for (int k = threadIdx.x; k < BLOCK + 2; k += BLOCK) {
    int g = base - 1 + k;
    g = g < 0 ? 0 : (g >= n ? n - 1 : g);
    tile[k] = in[g];
  }
  __syncthreads();
  if (i < n) {
    int t = threadIdx.x + 1;
    float l = tile[t - 1];
    float x = tile[t];
    // right neighbour: clamp at the end of the array (tile already clamps, this is explicit)
    float r = (i + 1 < n) ? tile[t + 1] : x;
    out[i] = a * l + b * x + c * r;
  }
}

extern "C" void stencil1d_3pt(int n, float a, float b, float c, const float* in, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  unsigned grid = (unsigned)(((long long)n + BLOCK - 1) / BLOCK);
  stencil1d_3pt_shared_kernel<<<grid, BLOCK, 0, stream>>>(n, a, b, c, in, out);
}
