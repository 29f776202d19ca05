// redteam: row 11 — forks with a raw syscall instruction
// expect: link_error syscall
// (refused at build time since issue 18: inline assembly naming a system-call instruction, and the
// object's code scan; the filter's own rule for the same call: Confine.* in tests/unit/confine_test.cpp)
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  long ret;
  asm volatile("syscall" : "=a"(ret) : "a"(57L), "D"((long)0), "S"((long)0), "d"((long)0) : "rcx", "r11", "memory");
  (void)ret;
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
