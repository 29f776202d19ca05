// redteam: row 2 — replays: skips the work when it sees an output pointer again
// expect: wrong_answer
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  static const float* seen[64]; static int count = 0;
  for (int k = 0; k < count; ++k) if (seen[k] == out) return;
  if (count < 64) seen[count++] = out;
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
