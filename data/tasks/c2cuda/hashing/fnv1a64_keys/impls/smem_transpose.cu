// strategy: smem_transpose — a CTA of 128 threads owns 128 consecutive keys (one contiguous byte range), loads it with coalesced 4-byte loads by the whole CTA and scatters the bytes into a transposed shared tile tile[j][key] so each thread then reads its key's bytes bank-conflict-free; keys longer than the tile budget fall back to direct per-thread loads
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kKeys = 128;       // keys (threads) per CTA
constexpr int kPitch = kKeys + 4;  // 33 words per tile row: a warp's scattered byte stores land in distinct banks
constexpr int kMaxKlen = 320;      // tile = kMaxKlen * kPitch bytes = 41.25 KiB of static shared memory

__global__ void __launch_bounds__(kKeys)
fnv1a64_smem_kernel(int n, int klen, const uint8_t* __restrict__ keys, unsigned long long* __restrict__ out) {
  __shared__ uint8_t tile[kMaxKlen * kPitch];  // tile[j * kPitch + key]
  const int t = threadIdx.x;
  const long long k0 = (long long)blockIdx.x * kKeys;
  const int nk = (int)((n - k0) < kKeys ? (n - k0) : kKeys);
  const uint8_t* src = keys + k0 * klen;
  const int bytes = nk * klen;
  // region start is a multiple of 128*klen bytes from the buffer start; fetch whole words when the buffer is 4-aligned
  int done = 0;
  if ((reinterpret_cast<uintptr_t>(src) & 3u) == 0) {
    const int words = bytes >> 2;
    const uint32_t* w = reinterpret_cast<const uint32_t*>(src);
    for (int g = t; g < words; g += kKeys) {
      uint32_t v = __ldg(w + g);
      int b = 4 * g;
      int key = b / klen, j = b - key * klen;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        tile[j * kPitch + key] = (uint8_t)(v >> (8 * c));
        if (++j == klen) { j = 0; ++key; }
      }
    }
    done = words * 4;
  }
  for (int b = done + t; b < bytes; b += kKeys) {
    const int key = b / klen;
    tile[(b - key * klen) * kPitch + key] = __ldg(src + b);
  }
  __syncthreads();
  if (t >= nk) return;
  uint64_t h = 0xcbf29ce484222325ull;
  for (int j = 0; j < klen; ++j) h = (h ^ tile[j * kPitch + t]) * 0x100000001b3ull;
  out[k0 + t] = h;
}

__global__ void __launch_bounds__(kKeys)
fnv1a64_direct_kernel(int n, int klen, const uint8_t* __restrict__ keys, unsigned long long* __restrict__ out) {
  const long long i = (long long)blockIdx.x * kKeys + threadIdx.x;
  if (i >= n) return;
  const uint8_t* p = keys + i * klen;
  uint64_t h = 0xcbf29ce484222325ull;
  for (int j = 0; j < klen; ++j) h = (h ^ __ldg(p + j)) * 0x100000001b3ull;
  out[i] = h;
}

}  // namespace

extern "C" void fnv1a64_keys(int n, int klen, const uint8_t* keys, unsigned long long* out, cudaStream_t stream) {
  if (n <= 0) return;
  const unsigned grid = (unsigned)(((long long)n + kKeys - 1) / kKeys);
  if (klen <= kMaxKlen)
    fnv1a64_smem_kernel<<<grid, kKeys, 0, stream>>>(n, klen, keys, out);
  else
    fnv1a64_direct_kernel<<<grid, kKeys, 0, stream>>>(n, klen, keys, out);
}
