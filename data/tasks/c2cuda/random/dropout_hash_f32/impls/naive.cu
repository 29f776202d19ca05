// strategy: naive (weak) — each thread owns a contiguous chunk of 64 elements and walks it serially (neighbouring lanes touch addresses 256 bytes apart, so every warp load/store is scattered over 32 cache lines)
#include <cuda_runtime.h>
#include <stdint.h>

__device__ uint32_t fmix32_naive(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

__global__ void dropout_naive_kernel(int n, uint32_t thr, float scale, uint32_t s0, uint32_t s1, const float* in,
                                     float* out, uint8_t* mask) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long b = t * 64;
  for (long long i = b; i < b + 64 && i < n; ++i) {
    uint32_t h = fmix32_naive(fmix32_naive((uint32_t)i * 0x9E3779B1u ^ s0) ^ s1);
    int keep = h >= thr;
    out[i] = keep ? in[i] * scale : 0.0f;
    mask[i] = (uint8_t)keep;
  }
}

extern "C" void dropout_hash_f32(int n, float p, unsigned long long seed, const float* in, float* out, uint8_t* mask,
                                 cudaStream_t stream) {
  if (n <= 0) return;
  const uint32_t thr = (uint32_t)((double)p * 4294967296.0);
  const float scale = 1.0f / (1.0f - p);
  const long long chunks = ((long long)n + 63) / 64;
  const int threads = 256;
  dropout_naive_kernel<<<(unsigned int)((chunks + threads - 1) / threads), threads, 0, stream>>>(
      n, thr, scale, (uint32_t)seed, (uint32_t)(seed >> 32), in, out, mask);
}
