// strategy: naive (weak) — one thread per output column walks all rows; no row splitting, so a tall matrix with few columns leaves almost the whole GPU idle
#include <cuda_runtime.h>

__global__ void matvec_t_naive_kernel(int rows, int cols, const double* a, const double* x, double* y) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  double acc = 0.0;
  for (int r = 0; r < rows; ++r) acc += a[(size_t)r * (size_t)cols + c] * x[r];
  y[c] = acc;
}

extern "C" void matvec_t_f64(int rows, int cols, const double* a, const double* x, double* y, cudaStream_t stream) {
  if (cols <= 0) return;
  const int threads = 64;
  matvec_t_naive_kernel<<<(cols + threads - 1) / threads, threads, 0, stream>>>(rows, cols, a, x, y);
}
