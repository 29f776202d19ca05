// strategy: naive (weak) — one thread per input row copies the whole row; reads and writes of neighbouring threads are cols / 1 element apart and the work per thread is serial
#include <cuda_runtime.h>

__global__ void transpose_naive_kernel(int rows, int cols, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float* src = in + (size_t)i * (size_t)cols;
  for (int j = 0; j < cols; ++j) out[(size_t)j * (size_t)rows + (size_t)i] = src[j];
}

extern "C" void transpose_f32(int rows, int cols, const float* in, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int threads = 128;
  transpose_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, in, out);
}
