// strategy: grid_stride_vec4 — persistent grid sized to the SMs, each thread loops over 4-element groups (float4 load, one 8-byte uint2 store of two packed words), unrolled by 2 so two groups' loads are in flight before any hashing
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t sr_one(uint32_t b, unsigned long long seed, unsigned long long i) {
  if ((b & 0x7F800000u) == 0x7F800000u) return (b >> 16) | ((b & 0x007FFFFFu) ? 0x0040u : 0u);
  unsigned long long z = i * 0xD6E8FEB86659FD93ull ^ seed;
  z ^= z >> 32;
  z *= 0xD6E8FEB86659FD93ull;
  z ^= z >> 32;
  z *= 0xD6E8FEB86659FD93ull;
  z ^= z >> 32;
  return (b + ((uint32_t)z & 0xFFFFu)) >> 16;
}

__device__ __forceinline__ uint2 sr_quad(float4 v, unsigned long long seed, unsigned long long i) {
  uint2 w;
  w.x = sr_one(__float_as_uint(v.x), seed, i + 0) | (sr_one(__float_as_uint(v.y), seed, i + 1) << 16);
  w.y = sr_one(__float_as_uint(v.z), seed, i + 2) | (sr_one(__float_as_uint(v.w), seed, i + 3) << 16);
  return w;
}

// one packed word from elements 2w and 2w+1 (the high half is 0 past n)
__device__ __forceinline__ uint32_t sr_word(const float* in, int n, unsigned long long seed, long long w) {
  const long long e = 2 * w;
  const uint32_t lo = sr_one(__float_as_uint(in[e]), seed, (unsigned long long)e);
  const uint32_t hi = (e + 1 < n) ? sr_one(__float_as_uint(in[e + 1]), seed, (unsigned long long)(e + 1)) : 0u;
  return lo | (hi << 16);
}

__global__ void __launch_bounds__(kThreads)
sr_gs_kernel(int n, unsigned long long seed, const float* __restrict__ in, uint32_t* __restrict__ out) {
  const long long full = (long long)n / 4;  // complete 4-element groups
  const long long stride = (long long)gridDim.x * kThreads;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  uint2* out2 = reinterpret_cast<uint2*>(out);
  long long q = (long long)blockIdx.x * kThreads + threadIdx.x;
  for (; q + stride < full; q += 2 * stride) {
    const float4 a = __ldcs(in4 + q);
    const float4 b = __ldcs(in4 + q + stride);
    __stcs(out2 + q, sr_quad(a, seed, 4ull * (unsigned long long)q));
    __stcs(out2 + q + stride, sr_quad(b, seed, 4ull * (unsigned long long)(q + stride)));
  }
  if (q < full) __stcs(out2 + q, sr_quad(__ldcs(in4 + q), seed, 4ull * (unsigned long long)q));
  // the n % 4 tail elements form 1 or 2 words after word 2*full: the first threads of block 0
  const long long tail_words = ((long long)n + 1) / 2 - 2 * full;
  if (blockIdx.x == 0 && threadIdx.x < tail_words) out[2 * full + threadIdx.x] = sr_word(in, n, seed, 2 * full + threadIdx.x);
}

__global__ void sr_scalar_kernel(int n, unsigned long long seed, const float* __restrict__ in, uint32_t* __restrict__ out) {
  const long long words = ((long long)n + 1) / 2;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride)
    out[w] = sr_word(in, n, seed, w);
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

extern "C" void stochastic_round_bf16(int n, unsigned long long seed, const float* in, uint32_t* out,
                                      cudaStream_t stream) {
  if (n <= 0) return;
  const long long quads = ((long long)n + 3) / 4;
  long long blocks = (quads + kThreads - 1) / kThreads;
  const long long max_blocks = 16LL * sm_count();
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks < 1) blocks = 1;
  const bool aligned = ((reinterpret_cast<uintptr_t>(in) & 15u) == 0) && ((reinterpret_cast<uintptr_t>(out) & 7u) == 0);
  if (aligned)
    sr_gs_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, seed, in, out);
  else
    sr_scalar_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, seed, in, out);
}
