// redteam: row 8 — calls cuBLAS instead of its own kernel
// expect: link_error library
#include <cublas_v2.h>
#include <cuda_runtime.h>
__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  cublasHandle_t h; cublasCreate(&h); cublasSetStream(h, stream); cublasSaxpy(h, n, &a, x, 1, out, 1);
  ;
}
