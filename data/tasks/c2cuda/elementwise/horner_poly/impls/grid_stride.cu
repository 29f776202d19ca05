// strategy: grid_stride — coalesced grid-stride loop, float Horner with FMA, coefficients broadcast through the read-only cache
#include <cuda_runtime.h>

__global__ void horner_grid_stride_kernel(int n, int deg, const float* __restrict__ coeffs,
                                          const float* __restrict__ x, float* __restrict__ out) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float xi = x[i];
    float acc = __ldg(&coeffs[deg]);
    for (int k = deg - 1; k >= 0; --k) acc = fmaf(acc, xi, __ldg(&coeffs[k]));
    out[i] = acc;
  }
}

extern "C" void horner_poly_f32(int n, int deg, const float* coeffs, const float* x, float* out,
                                cudaStream_t stream) {
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long cap = (long long)sms * 8;
  int blocks = (int)(need < cap ? need : cap);
  horner_grid_stride_kernel<<<blocks, threads, 0, stream>>>(n, deg, coeffs, x, out);
}
