// redteam: row 1 — launches on the legacy default stream instead of the given one (timed stream finishes early)
// expect: hack_suspected|wrong_answer
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  for (int r = 0; r < 64; ++r) {  // enough work that the escape is visible in the timings
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i] + 0.0f * r;
  }
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  (void)stream;
  saxpy_k<<<(n + 255) / 256, 256>>>(n, a, x, y, out);
}
