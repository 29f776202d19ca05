// strategy: naive (weak) — one thread per row makes three sequential passes (max, sum of exp in double, normalise); neighbouring threads are a whole row apart so no access coalesces
#include <cuda_runtime.h>

__global__ void softmax_naive_kernel(int rows, int cols, const float* x, float* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + (size_t)r * cols;
  float* o = out + (size_t)r * cols;
  float mx = xr[0];
  for (int c = 1; c < cols; ++c) mx = fmaxf(mx, xr[c]);
  double sum = 0.0;
  for (int c = 0; c < cols; ++c) sum += expf(xr[c] - mx);
  const float inv = (float)(1.0 / sum);
  for (int c = 0; c < cols; ++c) o[c] = expf(xr[c] - mx) * inv;
}

extern "C" void softmax_rows_f32(int rows, int cols, const float* x, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int threads = 128;
  softmax_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, x, out);
}
