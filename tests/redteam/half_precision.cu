// redteam: row 7 — computes in fp16 where the task is fp32
// expect: wrong_answer
#include <cuda_fp16.h>
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
__global__ void half_k(int n, float a, const float* x, const float* y, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = __half2float(__float2half(a) * __float2half(x[i]) + __float2half(y[i])); }

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  half_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
