// strategy: naive (weak) — one thread per option runs all of its paths serially (only n_opt threads in flight)
#include <cuda_runtime.h>
#include <stdint.h>

namespace {
__device__ __forceinline__ uint64_t splitmix64_mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

__global__ void mc_naive(int n_opt, int n_paths, float r, unsigned int seed, const float* S,
                         const float* K, const float* T, const float* sigma, float* price) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_opt) return;
  const uint64_t salt = (uint64_t)seed * 0xD1B54A32D192ED03ULL;
  const float s = S[i], k = K[i], t = T[i], v = sigma[i];
  const float drift = (r - 0.5f * v * v) * t;
  const float vol = v * sqrtf(t);
  float sum = 0.f;
  for (int p = 0; p < n_paths; ++p) {
    const uint64_t h = splitmix64_mix(((uint64_t)(uint32_t)i << 32) + (uint64_t)(uint32_t)p + salt);
    const float u1 = (float)((h >> 40) + 1) * (1.0f / 16777216.0f);
    const float u2 = (float)((h >> 16) & 0xFFFFFFULL) * (1.0f / 16777216.0f);
    const float z = sqrtf(-2.f * logf(u1)) * cosf(6.2831853f * u2);
    const float st = s * expf(drift + vol * z);
    sum += fmaxf(st - k, 0.f);
  }
  price[i] = expf(-r * t) * sum / (float)n_paths;
}
}  // namespace

extern "C" void mc_european(int n_opt, int n_paths, float r, unsigned int seed, const float* S,
                            const float* K, const float* T, const float* sigma, float* price,
                            cudaStream_t stream) {
  if (n_opt <= 0) return;
  mc_naive<<<(n_opt + 63) / 64, 64, 0, stream>>>(n_opt, n_paths, r, seed, S, K, T, sigma, price);
}
