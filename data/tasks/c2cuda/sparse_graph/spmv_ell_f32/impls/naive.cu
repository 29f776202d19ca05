// strategy: naive (weak) — one warp per row with lanes over the row's slots: in column-major ELL the slots of a row are `rows` apart, so every lane's load is a separate memory transaction, and lanes beyond width idle
#include <cuda_runtime.h>

__global__ void spmv_ell_naive_kernel(int rows, int width, const int* colidx, const float* vals, const float* x,
                                      float* y) {
  long long gt = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long r = gt >> 5;
  int lane = threadIdx.x & 31;
  if (r >= rows) return;  // whole warp leaves together
  float s = 0.0f;
  for (int j = lane; j < width; j += 32) {
    long long k = (long long)j * rows + r;
    int c = colidx[k];
    if (c >= 0) s += vals[k] * x[c];
  }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0) y[r] = s;
}

extern "C" void spmv_ell_f32(int rows, int cols, int width, const int* colidx, const float* vals,
                             const float* x, float* y, cudaStream_t stream) {
  (void)cols;
  if (rows <= 0) return;
  const int threads = 256;
  long long blocks = ((long long)rows * 32 + threads - 1) / threads;
  spmv_ell_naive_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(rows, width, colidx, vals, x, y);
}
