// strategy: naive (weak) — one thread per row walks the whole row serially: the warp reads A with a stride of cols floats (one cache line per thread per step), single dependent float accumulator
#include <cuda_runtime.h>
#include <math.h>

__global__ void matvec_bias_tanh_naive_kernel(int rows, int cols, float alpha, const float* A, const float* x,
                                              const float* b, float* y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += A[(long long)r * cols + c] * x[c];
  y[r] = tanhf(alpha * s + b[r]);
}

extern "C" void matvec_bias_tanh_f32(int rows, int cols, float alpha, const float* A, const float* x, const float* b,
                                     float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  const int threads = 128;
  matvec_bias_tanh_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, alpha, A, x, b, y);
}
