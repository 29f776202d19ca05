// strategy: sincos_vec4 — single precision with one fused sincosf per Newton step, four elements per thread through 16-byte float4 loads/stores (scalar tail), grid-stride
#include <cuda_runtime.h>

namespace {

__device__ __forceinline__ float solve(float m, float e, int iters) {
  float x = fmaf(e, sinf(m), m);
  for (int k = 0; k < iters; ++k) {
    float s, c;
    sincosf(x, &s, &c);
    x -= (x - e * s - m) / (1.0f - e * c);
  }
  return x;
}

__global__ void kepler_vec4_kernel(int n, int iters, const float* __restrict__ M, const float* __restrict__ ecc,
                                   float* __restrict__ E) {
  const int n4 = n >> 2;
  const int stride = gridDim.x * blockDim.x;
  const float4* M4 = reinterpret_cast<const float4*>(M);
  const float4* e4 = reinterpret_cast<const float4*>(ecc);
  float4* E4 = reinterpret_cast<float4*>(E);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 m = __ldcs(M4 + i);
    const float4 e = __ldcs(e4 + i);
    float4 r;
    r.x = solve(m.x, e.x, iters);
    r.y = solve(m.y, e.y, iters);
    r.z = solve(m.z, e.z, iters);
    r.w = solve(m.w, e.w, iters);
    __stcs(E4 + i, r);
  }
  const int t = (n4 << 2) + blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) E[t] = solve(M[t], ecc[t], iters);
}

}  // namespace

extern "C" void kepler_newton(int n, int iters, const float* M, const float* ecc, float* E, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  int blocks = ((n >> 2) + threads - 1) / threads;
  if (blocks < 1) blocks = 1;
  if (blocks > 132 * 16) blocks = 132 * 16;
  kepler_vec4_kernel<<<blocks, threads, 0, stream>>>(n, iters, M, ecc, E);
}
