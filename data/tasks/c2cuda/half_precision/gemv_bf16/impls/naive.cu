// strategy: naive (weak) — one thread per row walks the whole row sequentially with 16-bit scalar loads (neighbouring threads read addresses a full row apart: nothing coalesces), decodes each weight and accumulates with one fmaf per element
#include <cuda_runtime.h>

__global__ void gemv_bf16_naive_kernel(int rows, int cols, const unsigned short* A, const float* x, float* y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const long long base = (long long)r * cols;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const unsigned int p = (A[base + c] & 0x81FFu) | 0x3E00u;
    acc = fmaf(__uint_as_float(p << 16), x[c], acc);
  }
  y[r] = acc;
}

extern "C" void gemv_bf16(int rows, int cols, const unsigned int* A, const float* x, float* y, cudaStream_t stream) {
  if (rows <= 0) return;
  const int threads = 128;
  gemv_bf16_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(
      rows, cols, reinterpret_cast<const unsigned short*>(A), x, y);
}
