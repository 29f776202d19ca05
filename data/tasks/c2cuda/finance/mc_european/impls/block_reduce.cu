// strategy: block_reduce — one 256-thread block per option, threads stride over the paths and the per-thread float sums are combined by a shared-memory tree
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
constexpr int kThreads = 256;

__device__ __forceinline__ uint64_t splitmix64_mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

__global__ void __launch_bounds__(kThreads)
mc_block(int n_paths, float r, unsigned int seed, const float* __restrict__ S,
         const float* __restrict__ K, const float* __restrict__ T,
         const float* __restrict__ sigma, float* __restrict__ price) {
  __shared__ float red[kThreads];
  const int i = blockIdx.x;
  const uint64_t key0 = ((uint64_t)(uint32_t)i << 32) + (uint64_t)seed * 0xD1B54A32D192ED03ULL;
  const float s = S[i], k = K[i], t = T[i], v = sigma[i];
  const float drift = (r - 0.5f * v * v) * t;
  const float vol = v * sqrtf(t);
  float sum = 0.f;
  for (int p = threadIdx.x; p < n_paths; p += kThreads) {
    const uint64_t h = splitmix64_mix(key0 + (uint64_t)(uint32_t)p);
    const float u1 = (float)((h >> 40) + 1) * (1.0f / 16777216.0f);
    const float u2 = (float)((h >> 16) & 0xFFFFFFULL) * (1.0f / 16777216.0f);
    const float z = sqrtf(-2.f * logf(u1)) * cospif(2.f * u2);
    const float st = s * expf(fmaf(vol, z, drift));
    sum += fmaxf(st - k, 0.f);
  }
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) red[threadIdx.x] += red[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) price[i] = expf(-r * t) * red[0] / (float)n_paths;
}
}  // namespace

extern "C" void mc_european(int n_opt, int n_paths, float r, unsigned int seed, const float* S,
                            const float* K, const float* T, const float* sigma, float* price,
                            cudaStream_t stream) {
  if (n_opt <= 0) return;
  mc_block<<<n_opt, kThreads, 0, stream>>>(n_paths, r, seed, S, K, T, sigma, price);
}
