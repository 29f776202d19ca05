// strategy: naive (weak) — one thread per row scans the row twice on its own (max pass, quantise pass): neighbouring threads touch addresses a whole row apart, so nothing coalesces
#include <cuda_runtime.h>

__global__ void quantize_rows_i8_naive_kernel(int rows, int cols, const float* x, signed char* q, float* scale) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + (size_t)r * cols;
  signed char* qr = q + (size_t)r * cols;
  float amax = 0.0f;
  for (int c = 0; c < cols; ++c) amax = fmaxf(amax, fabsf(xr[c]));
  float s = __fdiv_rn(amax, 127.0f);
  scale[r] = s;
  for (int c = 0; c < cols; ++c) {
    signed char out = 0;
    if (s != 0.0f) {
      float v = rintf(__fdiv_rn(xr[c], s));
      v = fminf(fmaxf(v, -127.0f), 127.0f);
      out = (signed char)(int)v;
    }
    qr[c] = out;
  }
}

extern "C" void quantize_rows_i8(int rows, int cols, const float* x, signed char* q, float* scale,
                                 cudaStream_t stream) {
  if (rows <= 0) return;
  const int threads = 128;
  quantize_rows_i8_naive_kernel<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, cols, x, q, scale);
}
