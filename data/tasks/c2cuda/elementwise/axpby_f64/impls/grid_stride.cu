// strategy: grid_stride — coalesced grid-stride loop, one double per thread per iteration, grid sized to the SM count
#include <cuda_runtime.h>

__global__ void axpby_grid_stride_kernel(int n, double alpha, double beta, const double* __restrict__ x,
                                         const double* __restrict__ y, double* __restrict__ out) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = fma(alpha, x[i], beta * y[i]);
}

extern "C" void axpby_f64(int n, double alpha, double beta, const double* x, const double* y, double* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long cap = (long long)sms * 8;
  int blocks = (int)(need < cap ? need : cap);
  axpby_grid_stride_kernel<<<blocks, threads, 0, stream>>>(n, alpha, beta, x, y, out);
}
