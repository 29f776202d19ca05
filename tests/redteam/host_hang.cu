// redteam: row 12 — hangs in the host launcher
// expect: timeout
// runs-on: cpu (the confined host-side run)
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  volatile int spin = 1;
  while (spin) {}
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
