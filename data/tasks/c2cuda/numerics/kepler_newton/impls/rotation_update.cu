// strategy: rotation_update — one sincosf per element only: sin(E) and cos(E) are carried across Newton steps by the angle-addition rotation with the step d (short Taylor polynomials for |d| < 1/16, which is every step after the first few), renormalised each step; one thread per element
#include <cuda_runtime.h>

namespace {

// rotate (s, c) = (sin a, cos a) to (sin(a + d), cos(a + d))
__device__ __forceinline__ void rotate(float& s, float& c, float d) {
  float sd, cd;
  if (fabsf(d) < 0.0625f) {
    const float d2 = d * d;
    sd = d * (1.0f - d2 * (1.0f / 6.0f) * (1.0f - d2 * (1.0f / 20.0f)));
    cd = 1.0f - d2 * 0.5f * (1.0f - d2 * (1.0f / 12.0f) * (1.0f - d2 * (1.0f / 30.0f)));
  } else {
    sincosf(d, &sd, &cd);
  }
  const float ns = s * cd + c * sd;
  const float nc = c * cd - s * sd;
  const float r = 1.5f - 0.5f * (ns * ns + nc * nc);  // one Newton step towards unit length
  s = ns * r;
  c = nc * r;
}

__global__ void kepler_rot_kernel(int n, int iters, const float* __restrict__ M, const float* __restrict__ ecc,
                                  float* __restrict__ E) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float m = __ldg(M + i);
  const float e = __ldg(ecc + i);
  float s, c;
  sincosf(m, &s, &c);
  const float d0 = e * s;
  float x = m + d0;
  rotate(s, c, d0);
  for (int k = 0; k < iters; ++k) {
    const float d = -(x - e * s - m) / (1.0f - e * c);
    x += d;
    if (k + 1 < iters) rotate(s, c, d);
  }
  E[i] = x;
}

}  // namespace

extern "C" void kepler_newton(int n, int iters, const float* M, const float* ecc, float* E, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  kepler_rot_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, iters, M, ecc, E);
}
