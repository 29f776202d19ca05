// redteam: row 12 — writes far outside its buffer (illegal address)
// expect: runtime_error
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
__global__ void wild(float* out) { out[threadIdx.x + (1ll << 40)] = 1.0f; }

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  wild<<<1, 32, 0, stream>>>(out); (void)n; (void)a; (void)x; (void)y;
}
