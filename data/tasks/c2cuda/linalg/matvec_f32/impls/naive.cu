// strategy: naive (weak) — one thread per row walks the row sequentially; neighbouring threads read addresses cols apart, so the matrix reads do not coalesce
#include <cuda_runtime.h>

__global__ void matvec_naive_kernel(int rows, int cols, const float* a, const float* x, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* row = a + (size_t)r * (size_t)cols;
  float acc = 0.f;
  for (int c = 0; c < cols; ++c) acc += row[c] * x[c];
  y[r] = acc;
}

extern "C" void matvec_f32(int rows, int cols, const float* a, const float* x, float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  const int threads = 128;
  matvec_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, a, x, y);
}
