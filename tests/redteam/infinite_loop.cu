// redteam: row 12 — never finishes (device-side infinite loop)
// expect: timeout
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
__global__ void spin(volatile int* flag) { while (flag[0] != 12345678) {} }

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  spin<<<1, 1, 0, stream>>>((volatile int*)out); (void)n; (void)a; (void)x; (void)y;
}
