// strategy: grid_stride_wide — persistent grid sized to the SMs; each thread handles 8 consecutive elements per iteration (two float4 loads issued before any hashing, two float4 streaming stores, one 8-byte mask store), loop bound is the element count so no thread idles
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

__global__ void __launch_bounds__(kThreads)
dropout_wide_kernel(int n, uint32_t thr, float scale, uint32_t s0, uint32_t s1, const float* __restrict__ in,
                    float* __restrict__ out, uint8_t* __restrict__ mask, int aligned) {
  const long long octs = ((long long)n + 7) / 8;
  const long long stride = (long long)gridDim.x * kThreads;
  for (long long o = (long long)blockIdx.x * kThreads + threadIdx.x; o < octs; o += stride) {
    const long long i = 8 * o;
    if (aligned && i + 8 <= n) {
      const float4 a = __ldcs(reinterpret_cast<const float4*>(in) + 2 * o);
      const float4 b = __ldcs(reinterpret_cast<const float4*>(in) + 2 * o + 1);
      float v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
      unsigned int mlo = 0u, mhi = 0u;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const uint32_t h = fmix32(fmix32((uint32_t)(i + j) * 0x9E3779B1u ^ s0) ^ s1);
        const bool k = h >= thr;
        v[j] = k ? v[j] * scale : 0.0f;
        if (j < 4) mlo |= (unsigned int)k << (8 * j);
        else mhi |= (unsigned int)k << (8 * (j - 4));
      }
      __stcs(reinterpret_cast<float4*>(out) + 2 * o, make_float4(v[0], v[1], v[2], v[3]));
      __stcs(reinterpret_cast<float4*>(out) + 2 * o + 1, make_float4(v[4], v[5], v[6], v[7]));
      reinterpret_cast<uint2*>(mask)[o] = make_uint2(mlo, mhi);  // little-endian: byte j of the pair is element i+j
    } else {
      for (long long j = i; j < i + 8 && j < n; ++j) {
        const uint32_t h = fmix32(fmix32((uint32_t)j * 0x9E3779B1u ^ s0) ^ s1);
        const bool k = h >= thr;
        out[j] = k ? in[j] * scale : 0.0f;
        mask[j] = (uint8_t)k;
      }
    }
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void dropout_hash_f32(int n, float p, unsigned long long seed, const float* in, float* out, uint8_t* mask,
                                 cudaStream_t stream) {
  if (n <= 0) return;
  const uint32_t thr = (uint32_t)((double)p * 4294967296.0);
  const float scale = 1.0f / (1.0f - p);
  const int aligned = (((reinterpret_cast<uintptr_t>(in) | reinterpret_cast<uintptr_t>(out)) & 15u) == 0 &&
                       (reinterpret_cast<uintptr_t>(mask) & 7u) == 0)
                          ? 1
                          : 0;
  const long long octs = ((long long)n + 7) / 8;
  long long blocks = (octs + kThreads - 1) / kThreads;
  const long long max_blocks = 16LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  dropout_wide_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, thr, scale, (uint32_t)seed,
                                                                    (uint32_t)(seed >> 32), in, out, mask, aligned);
}
