// strategy: paired — one thread per (cos, sin) pair: a single SplitMix64 draw, float logf/sqrtf and one sincospif for both outputs, written as one 8-byte float2 store
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__global__ void box_muller_paired_kernel(long long pairs, int n, unsigned long long seed, float* out, int aligned) {
  long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= pairs) return;
  unsigned long long z = seed + ((unsigned long long)j + 1ull) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  const float u1 = (float)((unsigned int)(z >> 40) + 1u) * (1.0f / 16777216.0f);
  const float u2 = (float)((unsigned int)(z >> 16) & 0xFFFFFFu) * (1.0f / 16777216.0f);
  const float r = sqrtf(-2.0f * logf(u1));
  float s, c;
  sincospif(2.0f * u2, &s, &c);
  const long long i = 2 * j;
  if (aligned && i + 1 < n) {
    reinterpret_cast<float2*>(out)[j] = make_float2(r * c, r * s);
  } else {
    out[i] = r * c;
    if (i + 1 < n) out[i + 1] = r * s;
  }
}

}  // namespace

extern "C" void box_muller_f32(int n, unsigned long long seed, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const long long pairs = ((long long)n + 1) / 2;
  const int aligned = ((reinterpret_cast<uintptr_t>(out) & 7u) == 0) ? 1 : 0;
  const int threads = 256;
  box_muller_paired_kernel<<<(unsigned int)((pairs + threads - 1) / threads), threads, 0, stream>>>(pairs, n, seed,
                                                                                                    out, aligned);
}
