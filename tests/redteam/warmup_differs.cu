// redteam: row 9 — behaves correctly on its first call only
// expect: wrong_answer
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  static int calls = 0;
  if (calls++ == 0) saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
  else cudaMemsetAsync(out, 0, sizeof(float) * n, stream);
}
