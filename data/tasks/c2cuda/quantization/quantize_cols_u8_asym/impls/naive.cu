// strategy: naive (weak) — one thread per column does everything (min/max walk down the column, then a quantise walk): only `cols` threads are in flight, each serialised over all rows
#include <cuda_runtime.h>

__global__ void quant_cols_naive_kernel(int rows, int cols, const float* x, unsigned char* q, float* scale, int* zp) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float lo = 0.0f, hi = 0.0f;
  for (int r = 0; r < rows; ++r) {
    float v = x[(size_t)r * cols + c];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  float s = __fdiv_rn(__fsub_rn(hi, lo), 255.0f);
  if (s == 0.0f) s = 1.0f;
  int z = (int)fminf(fmaxf(rintf(__fdiv_rn(-lo, s)), 0.0f), 255.0f);
  scale[c] = s;
  zp[c] = z;
  for (int r = 0; r < rows; ++r) {
    size_t i = (size_t)r * cols + c;
    float v = __fadd_rn(rintf(__fdiv_rn(x[i], s)), (float)z);
    q[i] = (unsigned char)(int)fminf(fmaxf(v, 0.0f), 255.0f);
  }
}

extern "C" void quantize_cols_u8_asym(int rows, int cols, const float* x, unsigned char* q, float* scale, int* zp,
                                      cudaStream_t stream) {
  if (cols <= 0) return;
  const int threads = 128;
  quant_cols_naive_kernel<<<(cols + threads - 1) / threads, threads, 0, stream>>>(rows, cols, x, q, scale, zp);
}
