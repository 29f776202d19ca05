// strategy: naive (weak) — one thread per row makes three serial passes (max, sum of exp, write) over its row; accesses of neighbouring threads are cols apart (uncoalesced)
#include <cuda_runtime.h>
#include <math.h>

__global__ void log_softmax_naive_kernel(int rows, int cols, const float* x, float* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + (long long)r * cols;
  float* orow = out + (long long)r * cols;
  float mx = -INFINITY;
  for (int c = 0; c < cols; ++c) mx = fmaxf(mx, xr[c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += expf(xr[c] - mx);
  const float lse = logf(sum);
  for (int c = 0; c < cols; ++c) orow[c] = (xr[c] - mx) - lse;
}

extern "C" void log_softmax_f32(int rows, int cols, const float* x, float* out, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const int threads = 128;
  log_softmax_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, x, out);
}
