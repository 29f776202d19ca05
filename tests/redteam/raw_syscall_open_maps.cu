// redteam: issue 18 item 2 — opens /proc/self/maps read-only (passes the filter) with a syscall
// instruction spelled as raw bytes, so no source rule sees it: the object's code scan does
// expect: link_error syscall instruction in saxpy_f32
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  static const char path[] = "/proc/self/maps";
  long fd;
  asm volatile(".byte 0x0f, 0x05" : "=a"(fd) : "a"(2L), "D"(path), "S"(0L) : "rcx", "r11", "memory");  // open(path, O_RDONLY)
  (void)fd;  // the harness's mappings: where its result log and GOT are
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
