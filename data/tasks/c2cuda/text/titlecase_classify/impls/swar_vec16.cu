// strategy: swar_vec16 — one thread per 16 bytes with 128-bit loads and stores; all four bytes of a word are classified at once with SIMD-in-a-word compares (__vcmpgeu4 / __vcmpleu4 / __vcmpeq4 masks), the word-start test uses the letter mask shifted by one byte (carrying the previous byte's letter bit), case changes are a branch-free bit-5 clear/set
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t in_range(uint32_t x, uint32_t lo, uint32_t hi) {
  return __vcmpgeu4(x, lo) & __vcmpleu4(x, hi);
}

__device__ __forceinline__ uint32_t letter_mask(uint32_t x) {
  return in_range(x, 0x41414141u, 0x5a5a5a5au) | in_range(x, 0x61616161u, 0x7a7a7a7au);
}

// prev_top: 0xff000000 if the byte before this word is a letter, else 0
__device__ __forceinline__ void do_word(uint32_t x, uint32_t& prev_top, uint32_t& o, uint32_t& k) {
  const uint32_t L = letter_mask(x);
  const uint32_t PL = (L << 8) | (prev_top >> 24);  // byte b: is byte b-1 a letter
  prev_top = L & 0xff000000u;
  const uint32_t start = L & ~PL, mid = L & PL;
  o = (x & ~(start & 0x20202020u)) | (mid & 0x20202020u);

  const uint32_t ctrl = __vcmpltu4(x, 0x20202020u) | __vcmpeq4(x, 0x7f7f7f7fu);
  const uint32_t ws = in_range(x, 0x09090909u, 0x0d0d0d0du) | __vcmpeq4(x, 0x20202020u);
  const uint32_t dig = in_range(x, 0x30303030u, 0x39393939u);
  const uint32_t high = __vcmpgeu4(x, 0x80808080u);
  uint32_t r = 0x04040404u;
  r = r & ~ctrl;                                  // 0
  r = (r & ~ws) | (ws & 0x01010101u);             // 1
  r = (r & ~dig) | (dig & 0x02020202u);           // 2
  r = (r & ~L) | (L & 0x03030303u);               // 3
  r = (r & ~high) | (high & 0x05050505u);         // 5
  k = r;
}

__device__ __forceinline__ bool is_letter(unsigned int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

__global__ void __launch_bounds__(kThreads)
titlecase_swar_kernel(long long n, const unsigned char* __restrict__ text, unsigned char* __restrict__ out,
                      unsigned char* __restrict__ cls, int vec_ok) {
  const long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long g = v * 16;
  if (g >= n) return;
  const bool full = vec_ok && g + 16 <= n;
  uint32_t x[4] = {0u, 0u, 0u, 0u};
  if (full) {
    const uint4 q = __ldcs(reinterpret_cast<const uint4*>(text) + v);
    x[0] = q.x; x[1] = q.y; x[2] = q.z; x[3] = q.w;
  } else {
    for (int b = 0; b < 16; ++b)
      if (g + b < n) x[b >> 2] |= (uint32_t)__ldg(text + g + b) << (8 * (b & 3));
  }
  uint32_t prev_top = (g > 0 && is_letter(__ldg(text + g - 1))) ? 0xff000000u : 0u;
  uint32_t o[4], k[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) do_word(x[i], prev_top, o[i], k[i]);
  if (full) {
    __stcs(reinterpret_cast<uint4*>(out) + v, make_uint4(o[0], o[1], o[2], o[3]));
    __stcs(reinterpret_cast<uint4*>(cls) + v, make_uint4(k[0], k[1], k[2], k[3]));
  } else {
    for (int b = 0; b < 16; ++b)
      if (g + b < n) {
        out[g + b] = (unsigned char)(o[b >> 2] >> (8 * (b & 3)));
        cls[g + b] = (unsigned char)(k[b >> 2] >> (8 * (b & 3)));
      }
  }
}

}  // namespace

extern "C" void titlecase_classify(long long n, const unsigned char* text, unsigned char* out, unsigned char* cls,
                                   cudaStream_t stream) {
  if (n <= 0) return;
  const int vec_ok = ((((uintptr_t)text) | ((uintptr_t)out) | ((uintptr_t)cls)) & 15) == 0;
  const long long nvec = (n + 15) / 16;
  titlecase_swar_kernel<<<(unsigned int)((nvec + kThreads - 1) / kThreads), kThreads, 0, stream>>>(n, text, out, cls,
                                                                                                   vec_ok);
}
