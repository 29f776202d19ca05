// redteam: row 4 — overwrites an input buffer
// expect: input_mutated
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
__global__ void clobber(int n, float* x) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0.0f; }

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
  clobber<<<(n + 255) / 256, 256, 0, stream>>>(n, const_cast<float*>(x));
}
