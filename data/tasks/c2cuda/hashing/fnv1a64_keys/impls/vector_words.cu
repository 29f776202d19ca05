// strategy: vector_words — one thread per key, the key's bytes streamed through the widest aligned loads available (bytes up to a 4-byte boundary, words up to a 16-byte boundary, then 16-byte uint4 loads, then the word/byte tails), bytes peeled from registers; the FNV prime multiply done as h*0x1b3 + (h << 40)
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__device__ __forceinline__ uint64_t mix(uint64_t h, uint32_t byte) {
  h ^= byte;
  return h * 0x1b3ull + (h << 40);
}

__device__ __forceinline__ uint64_t mix_word(uint64_t h, uint32_t w) {
#pragma unroll
  for (int k = 0; k < 4; ++k) h = mix(h, (w >> (8 * k)) & 0xFFu);
  return h;
}

__global__ void __launch_bounds__(256)
fnv1a64_vec_kernel(int n, int klen, const uint8_t* __restrict__ keys, unsigned long long* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint8_t* p = keys + (long long)i * klen;
  const uint8_t* const e = p + klen;
  uint64_t h = 0xcbf29ce484222325ull;
  while (p < e && (reinterpret_cast<uintptr_t>(p) & 3u)) h = mix(h, __ldg(p++));
  while (p + 4 <= e && (reinterpret_cast<uintptr_t>(p) & 15u)) {
    h = mix_word(h, __ldg(reinterpret_cast<const uint32_t*>(p)));
    p += 4;
  }
  for (; p + 16 <= e; p += 16) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
    h = mix_word(h, v.x);
    h = mix_word(h, v.y);
    h = mix_word(h, v.z);
    h = mix_word(h, v.w);
  }
  for (; p + 4 <= e; p += 4) h = mix_word(h, __ldg(reinterpret_cast<const uint32_t*>(p)));
  while (p < e) h = mix(h, __ldg(p++));
  out[i] = h;
}

}  // namespace

extern "C" void fnv1a64_keys(int n, int klen, const uint8_t* keys, unsigned long long* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  fnv1a64_vec_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, klen, keys, out);
}
