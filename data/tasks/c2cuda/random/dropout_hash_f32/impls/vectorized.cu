// strategy: vectorized — one thread per 4 consecutive elements: a 16-byte float4 load, four hashes, a 16-byte float4 store of the scaled values and one 4-byte uchar4 store of the mask bytes; scalar path for the tail or unaligned buffers
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__device__ __forceinline__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

__device__ __forceinline__ bool keep_at(uint32_t i, uint32_t thr, uint32_t s0, uint32_t s1) {
  return fmix32(fmix32(i * 0x9E3779B1u ^ s0) ^ s1) >= thr;
}

__global__ void dropout_vec_kernel(int n, uint32_t thr, float scale, uint32_t s0, uint32_t s1,
                                   const float* __restrict__ in, float* __restrict__ out, uint8_t* __restrict__ mask,
                                   int aligned) {
  const long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long i = 4 * q;
  if (i >= n) return;
  if (aligned && i + 4 <= n) {
    const float4 v = __ldcs(reinterpret_cast<const float4*>(in) + q);
    const uint32_t u = (uint32_t)i;
    const bool k0 = keep_at(u, thr, s0, s1), k1 = keep_at(u + 1u, thr, s0, s1);
    const bool k2 = keep_at(u + 2u, thr, s0, s1), k3 = keep_at(u + 3u, thr, s0, s1);
    float4 o;
    o.x = k0 ? v.x * scale : 0.0f;
    o.y = k1 ? v.y * scale : 0.0f;
    o.z = k2 ? v.z * scale : 0.0f;
    o.w = k3 ? v.w * scale : 0.0f;
    __stcs(reinterpret_cast<float4*>(out) + q, o);
    reinterpret_cast<uchar4*>(mask)[q] =
        make_uchar4((unsigned char)k0, (unsigned char)k1, (unsigned char)k2, (unsigned char)k3);
  } else {
    for (long long j = i; j < i + 4 && j < n; ++j) {
      const bool k = keep_at((uint32_t)j, thr, s0, s1);
      out[j] = k ? in[j] * scale : 0.0f;
      mask[j] = (uint8_t)k;
    }
  }
}

}  // namespace

extern "C" void dropout_hash_f32(int n, float p, unsigned long long seed, const float* in, float* out, uint8_t* mask,
                                 cudaStream_t stream) {
  if (n <= 0) return;
  const uint32_t thr = (uint32_t)((double)p * 4294967296.0);
  const float scale = 1.0f / (1.0f - p);
  const int aligned = (((reinterpret_cast<uintptr_t>(in) | reinterpret_cast<uintptr_t>(out)) & 15u) == 0 &&
                       (reinterpret_cast<uintptr_t>(mask) & 3u) == 0)
                          ? 1
                          : 0;
  const long long quads = ((long long)n + 3) / 4;
  const int threads = 256;
  dropout_vec_kernel<<<(unsigned int)((quads + threads - 1) / threads), threads, 0, stream>>>(
      n, thr, scale, (uint32_t)seed, (uint32_t)(seed >> 32), in, out, mask, aligned);
}
