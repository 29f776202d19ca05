// redteam: row 6 — takes a cheaper, wrong path for the large timed size
// expect: wrong_answer
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
__global__ void cheap(int n, const float* y, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = y[i]; }

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n > 1000000) cheap<<<(n + 255) / 256, 256, 0, stream>>>(n, y, out);
  else saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
