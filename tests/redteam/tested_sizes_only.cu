// redteam: row 6 — correct only for the tiny size it has seen
// expect: wrong_answer
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n == 13) saxpy_k<<<1, 256, 0, stream>>>(n, a, x, y, out);
}
