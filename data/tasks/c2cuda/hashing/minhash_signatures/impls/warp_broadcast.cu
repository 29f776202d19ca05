// strategy: warp_broadcast — one warp per set (grid-stride): the warp loads 32 elements at a time with one coalesced load, then broadcasts each element with __shfl_sync while every lane owns up to four hash functions (lane, lane+32, ...) and keeps their minima in registers; signatures are written with coalesced stores, no reduction needed
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kPer = 4;  // hash functions per lane per pass (128 per warp pass)

__device__ __forceinline__ uint32_t mix32(uint32_t h) {
  h = (h ^ (h >> 16)) * 0x85ebca6bu;
  h = (h ^ (h >> 13)) * 0xc2b2ae35u;
  return h ^ (h >> 16);
}

__global__ void __launch_bounds__(256)
minhash_warp_kernel(int nsets, int nh, const int* __restrict__ rowptr, const uint32_t* __restrict__ elems,
                    uint32_t* __restrict__ sig) {
  const int lane = threadIdx.x & 31;
  const int warps = (gridDim.x * blockDim.x) >> 5;
  for (int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; s < nsets; s += warps) {
    const int b = __ldg(rowptr + s), e = __ldg(rowptr + s + 1);
    for (int h0 = 0; h0 < nh; h0 += 32 * kPer) {
      const int groups = min(kPer, (nh - h0 + 31) >> 5);  // warp-uniform
      uint32_t seed[kPer], best[kPer];
#pragma unroll
      for (int c = 0; c < kPer; ++c) {
        seed[c] = 0x9E3779B9u * (uint32_t)(h0 + 32 * c + lane + 1);
        best[c] = 0xFFFFFFFFu;
      }
      for (int base = b; base < e; base += 32) {
        const uint32_t mine = (base + lane < e) ? __ldg(elems + base + lane) : 0u;
        const int cnt = min(32, e - base);
        for (int j = 0; j < cnt; ++j) {
          const uint32_t x = __shfl_sync(0xffffffffu, mine, j);
#pragma unroll
          for (int c = 0; c < kPer; ++c)
            if (c < groups) best[c] = min(best[c], mix32(x ^ seed[c]));
        }
      }
      uint32_t* out = sig + (long long)s * nh + h0 + lane;
#pragma unroll
      for (int c = 0; c < kPer; ++c)
        if (c < groups && h0 + 32 * c + lane < nh) out[32 * c] = best[c];
    }
  }
}

}  // namespace

extern "C" void minhash_signatures(int nsets, int nnz, int nh, const int* rowptr, const uint32_t* elems, uint32_t* sig,
                                   cudaStream_t stream) {
  (void)nnz;
  if (nsets <= 0 || nh <= 0) return;
  int dev = 0, sms = 1;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  long long grid = ((long long)nsets + 7) / 8;
  if (grid > 32LL * sms) grid = 32LL * sms;
  minhash_warp_kernel<<<(unsigned)grid, 256, 0, stream>>>(nsets, nh, rowptr, elems, sig);
}
