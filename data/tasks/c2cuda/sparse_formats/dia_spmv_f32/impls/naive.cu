// strategy: naive (weak) — one thread per row loops over the diagonals, re-reading every offset and every x value straight from global memory with no staging or reuse
#include <cuda_runtime.h>

__global__ void dia_naive_kernel(int rows, int cols, int ndiag, const int* offsets, const float* data, const float* x,
                                 float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int d = 0; d < ndiag; ++d) {
    long long c = (long long)r + offsets[d];
    if (c >= 0 && c < cols) s += data[(size_t)d * rows + r] * x[c];
  }
  y[r] = s;
}

extern "C" void dia_spmv_f32(int rows, int cols, int ndiag, int band, const int* offsets, const float* data,
                             const float* x, float* y, cudaStream_t stream) {
  (void)band;
  if (rows <= 0) return;
  const int threads = 256;
  dia_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, ndiag, offsets, data, x, y);
}
