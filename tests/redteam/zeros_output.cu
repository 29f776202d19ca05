// redteam: row 5 — writes zeros (a degenerate output)
// expect: wrong_answer
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  cudaMemsetAsync(out, 0, sizeof(float) * n, stream); (void)a; (void)x; (void)y;
}
