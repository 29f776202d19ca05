// strategy: warp_words — one warp per pair; lanes read the pair's bytes as aligned 32-bit words (coalesced), XOR them and count differing bases with the SWAR test (x | x>>1) & 0x5555..., bytes outside the string masked off, warp-shuffle sum
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t diff_bases(uint32_t x) { return (x | (x >> 1)) & 0x55555555u; }

__global__ void __launch_bounds__(kThreads)
dna_warp_kernel(int npairs, int L, const unsigned char* __restrict__ a, const unsigned char* __restrict__ b,
                int* __restrict__ dist, int aligned) {
  const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (warp >= npairs) return;  // whole warps exit together
  const long long R = (L + 3) / 4;
  const long long total = (long long)npairs * R;
  const long long s = warp * R, e = s + R;  // bytes [s, e)
  const int rem = L - 4 * (int)(R - 1);     // bases in the last byte, 1..4
  const uint32_t last_bits = (rem == 4) ? 0xffu : ((1u << (2 * rem)) - 1u);
  int cnt = 0;
  if (aligned) {
    const long long w0 = s >> 2, w1 = (e + 3) >> 2;
    const uint32_t* A = reinterpret_cast<const uint32_t*>(a);
    const uint32_t* B = reinterpret_cast<const uint32_t*>(b);
    for (long long w = w0 + lane; w < w1; w += 32) {
      const long long addr = 4 * w;
      uint32_t xa, xb;
      if (addr + 4 <= total) {
        xa = __ldg(A + w);
        xb = __ldg(B + w);
      } else {
        xa = xb = 0u;
        for (int k = 0; k < 4; ++k)
          if (addr + k < total) {
            xa |= (uint32_t)__ldg(a + addr + k) << (8 * k);
            xb |= (uint32_t)__ldg(b + addr + k) << (8 * k);
          }
      }
      uint32_t keep = 0u;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const long long p = addr + k;
        uint32_t m = (p >= s && p < e) ? 0xffu : 0u;
        if (p == e - 1) m = last_bits;
        keep |= m << (8 * k);
      }
      cnt += __popc(diff_bases(xa ^ xb) & keep);
    }
  } else {
    for (long long p = s + lane; p < e; p += 32) {
      uint32_t m = (p == e - 1) ? last_bits : 0xffu;
      cnt += __popc(diff_bases((uint32_t)(__ldg(a + p) ^ __ldg(b + p))) & m);
    }
  }
  for (int off = 16; off > 0; off >>= 1) cnt += __shfl_down_sync(0xffffffffu, cnt, off);
  if (lane == 0) dist[warp] = cnt;
}

}  // namespace

extern "C" void dna_hamming_packed(int npairs, int L, const unsigned char* a, const unsigned char* b, int* dist,
                                   cudaStream_t stream) {
  if (npairs <= 0) return;
  if (L <= 0) {
    cudaMemsetAsync(dist, 0, (size_t)npairs * sizeof(int), stream);
    return;
  }
  const int aligned = ((((uintptr_t)a) | ((uintptr_t)b)) & 3) == 0;
  const long long threads = (long long)npairs * 32;
  const long long blocks = (threads + kThreads - 1) / kThreads;
  dna_warp_kernel<<<(unsigned int)blocks, kThreads, 0, stream>>>(npairs, L, a, b, dist, aligned);
}
