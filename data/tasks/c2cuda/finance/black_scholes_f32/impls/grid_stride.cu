// strategy: grid_stride — coalesced grid-stride loop, one option per thread per iteration, put from put-call parity terms sharing one erfc pair
#include <cuda_runtime.h>

namespace {
__global__ void bs_grid_stride(int n, float r, float v, const float* __restrict__ S,
                               const float* __restrict__ K, const float* __restrict__ T,
                               float* __restrict__ call, float* __restrict__ put) {
  const float mu = r + 0.5f * v * v;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const float s = S[i], k = K[i], t = T[i];
    const float vs = v * sqrtf(t);
    const float d1 = fmaf(mu, t, logf(s / k)) / vs;
    const float d2 = d1 - vs;
    const float kd = k * expf(-r * t);
    // N(x) and N(-x) from the same erfc pair keeps both tails accurate
    const float n1 = 0.5f * erfcf(-d1 * 0.70710678f);
    const float m1 = 0.5f * erfcf(d1 * 0.70710678f);
    const float n2 = 0.5f * erfcf(-d2 * 0.70710678f);
    const float m2 = 0.5f * erfcf(d2 * 0.70710678f);
    call[i] = s * n1 - kd * n2;
    put[i] = kd * m2 - s * m1;
  }
}
}  // namespace

extern "C" void black_scholes_f32(int n, float r, float v, const float* S, const float* K,
                                  const float* T, float* call, float* put,
                                  cudaStream_t stream) {
  if (n <= 0) return;
  const int block = 256;
  long long blocks = ((long long)n + block - 1) / block;
  if (blocks > 132LL * 32) blocks = 132LL * 32;
  bs_grid_stride<<<(int)blocks, block, 0, stream>>>(n, r, v, S, K, T, call, put);
}
