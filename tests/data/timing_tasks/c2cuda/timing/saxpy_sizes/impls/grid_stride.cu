// strategy: grid_stride — coalesced one-element-per-iteration grid-stride loop sized to the SM count
#include <cuda_runtime.h>

__global__ void saxpy_grid_stride_kernel(int n, float a, const float* __restrict__ x,
                                         const float* __restrict__ y, float* __restrict__ out) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = fmaf(a, x[i], y[i]);
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long cap = (long long)sms * 8;
  int blocks = (int)(need < cap ? need : cap);
  saxpy_grid_stride_kernel<<<blocks, threads, 0, stream>>>(n, a, x, y, out);
}
