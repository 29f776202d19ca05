// redteam: issue 18 item 2 — a system call through the i386 ABI (int $0x80, which an x86-64 filter's
// rules do not name), the mnemonic built by a macro so no source rule sees it: the code scan does
// (and at run time the filter ends the process: Confine.OtherSystemCallAbisKillTheProcess)
// expect: link_error int $0x80 instruction in saxpy_f32
#include <cuda_runtime.h>
#define I386_TRAP(v) "int $" #v
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  long ret;
  asm volatile(I386_TRAP(0x80) : "=a"(ret) : "a"(20L) : "memory");  // i386 getpid
  (void)ret;
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
