// strategy: float2_grid_stride — one complex number per thread per iteration as a 64-bit float2 load/store, coalesced grid-stride loop
#include <cuda_runtime.h>

__device__ __forceinline__ float2 cmul(float2 p, float2 q) {
  return make_float2(fmaf(p.x, q.x, -p.y * q.y), fmaf(p.x, q.y, p.y * q.x));
}

__global__ void cmul_float2_kernel(int n, const float2* __restrict__ a, const float2* __restrict__ b,
                                   float2* __restrict__ out) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
    out[k] = cmul(a[k], b[k]);
}

__global__ void cmul_scalar_kernel(int n, const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ out) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
    float2 r = cmul(make_float2(a[2 * k], a[2 * k + 1]), make_float2(b[2 * k], b[2 * k + 1]));
    out[2 * k] = r.x;
    out[2 * k + 1] = r.y;
  }
}

extern "C" void complex_mul_f32(int n, const float* a, const float* b, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long cap = (long long)sms * 8;
  int blocks = (int)(need < cap ? need : cap);
  bool aligned = ((reinterpret_cast<unsigned long long>(a) | reinterpret_cast<unsigned long long>(b) |
                   reinterpret_cast<unsigned long long>(out)) & 7) == 0;
  if (aligned)
    cmul_float2_kernel<<<blocks, threads, 0, stream>>>(n, reinterpret_cast<const float2*>(a),
                                                       reinterpret_cast<const float2*>(b),
                                                       reinterpret_cast<float2*>(out));
  else
    cmul_scalar_kernel<<<blocks, threads, 0, stream>>>(n, a, b, out);
}
