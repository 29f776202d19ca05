// redteam: row 12 — traps on the device
// expect: runtime_error
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
__global__ void trap_k() { __trap(); }

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  trap_k<<<1, 1, 0, stream>>>(); (void)n; (void)a; (void)x; (void)y; (void)out;
}
