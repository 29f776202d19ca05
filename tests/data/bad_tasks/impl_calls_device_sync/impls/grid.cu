// strategy: grid — test implementation
#include <cuda_runtime.h>
__global__ void k_grid(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
extern "C" void axpy_impl_calls_device_sync(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n > 0) k_grid<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);

}
