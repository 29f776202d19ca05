// redteam: row 11 — loads another shared object (a dataset impl from the cache)
// expect: link_error loads code at run time
#include <dlfcn.h>
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  void* h = dlopen("libfast.so", RTLD_NOW); (void)h;
  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);
}
