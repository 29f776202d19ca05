// redteam: row 12 — writes one element past the end of the output
// expect: out_of_bounds
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
__global__ void past(int n, float* out) { out[n] = 1.0f; }

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
  past<<<1, 1, 0, stream>>>(n, out);
}
