// strategy: naive (weak) — one thread per row walks the row sequentially; neighbouring threads touch addresses cols apart, so nothing coalesces
#include <cuda_runtime.h>

__global__ void rownorm_naive_kernel(int rows, int cols, const float* a, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* row = a + (size_t)r * (size_t)cols;
  double acc = 0.0;
  for (int c = 0; c < cols; ++c) {
    double v = row[c];
    acc += v * v;
  }
  out[r] = (float)sqrt(acc);
}

extern "C" void row_l2_norm_f32(int rows, int cols, const float* a, float* out, cudaStream_t stream) {
  if (rows <= 0) return;
  const int threads = 128;
  int blocks = (rows + threads - 1) / threads;
  rownorm_naive_kernel<<<blocks, threads, 0, stream>>>(rows, cols, a, out);
}
