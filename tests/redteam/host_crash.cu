// redteam: row 12 — dereferences a null pointer on the host
// expect: runtime_error
// runs-on: cpu (the confined host-side run)
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  volatile float* p = (volatile float*)((unsigned long)out ^ 0x4000000000000000ul); *p = 1.0f; (void)n; (void)a; (void)x; (void)y; (void)stream;
}
