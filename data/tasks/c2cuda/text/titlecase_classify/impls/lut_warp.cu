// strategy: lut_warp — a 256-entry class table built in shared memory per block; each lane handles one 32-bit word (4 bytes) in a warp-uniform grid-stride loop, the byte before its word comes from the neighbouring lane by __shfl_up_sync (lane 0 reads it from global), 32-bit coalesced loads and stores
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ unsigned char class_of(unsigned int c) {
  if (c == ' ' || (c >= 9 && c <= 13)) return 1;
  if (c < 32 || c == 127) return 0;
  if (c >= '0' && c <= '9') return 2;
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return 3;
  if (c >= 128) return 5;
  return 4;
}

__global__ void __launch_bounds__(kThreads)
titlecase_lut_kernel(long long n, const unsigned char* __restrict__ text, unsigned char* __restrict__ out,
                     unsigned char* __restrict__ cls, int word_ok) {
  __shared__ unsigned char lut[256];
  for (int c = threadIdx.x; c < 256; c += blockDim.x) lut[c] = class_of((unsigned int)c);
  __syncthreads();

  const int lane = threadIdx.x & 31;
  const long long nwords = (n + 3) / 4;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long base = (long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < nwords; base += stride) {
    const long long v = base + lane;
    const bool valid = v < nwords;
    const long long g = 4 * v;
    const bool full = valid && word_ok && g + 4 <= n;
    uint32_t x = 0u;
    if (full) {
      x = __ldg(reinterpret_cast<const uint32_t*>(text) + v);
    } else if (valid) {
      for (int b = 0; b < 4; ++b)
        if (g + b < n) x |= (uint32_t)__ldg(text + g + b) << (8 * b);
    }
    const uint32_t up = __shfl_up_sync(0xffffffffu, x, 1);
    if (!valid) continue;  // after the shuffle; the loop bound is warp-uniform
    unsigned int prev = (lane == 0) ? ((v == 0) ? 0u : (unsigned int)__ldg(text + g - 1)) : (up >> 24);
    bool prev_letter = lut[prev] == 3;
    uint32_t o = 0u, k = 0u;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const unsigned int c = (x >> (8 * b)) & 0xffu;
      const unsigned int kc = lut[c];
      const bool letter = kc == 3;
      const unsigned int oc = letter ? (prev_letter ? (c | 0x20u) : (c & ~0x20u)) : c;
      prev_letter = letter;
      o |= oc << (8 * b);
      k |= kc << (8 * b);
    }
    if (full) {
      reinterpret_cast<uint32_t*>(out)[v] = o;
      reinterpret_cast<uint32_t*>(cls)[v] = k;
    } else {
      for (int b = 0; b < 4; ++b)
        if (g + b < n) {
          out[g + b] = (unsigned char)(o >> (8 * b));
          cls[g + b] = (unsigned char)(k >> (8 * b));
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

extern "C" void titlecase_classify(long long n, const unsigned char* text, unsigned char* out, unsigned char* cls,
                                   cudaStream_t stream) {
  if (n <= 0) return;
  const int word_ok = ((((uintptr_t)text) | ((uintptr_t)out) | ((uintptr_t)cls)) & 3) == 0;
  const long long nwords = (n + 3) / 4;
  long long blocks = (nwords + kThreads - 1) / kThreads;
  if (blocks > 32LL * sm_count()) blocks = 32LL * sm_count();
  titlecase_lut_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(n, text, out, cls, word_ok);
}
