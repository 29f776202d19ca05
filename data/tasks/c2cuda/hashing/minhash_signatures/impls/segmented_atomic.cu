// strategy: segmented_atomic — element-parallel and load-balanced regardless of set sizes: each lane takes one element (coalesced), finds its set by binary search in rowptr, and for every hash function the warp does a segmented min-reduction with shuffles over runs of lanes in the same set; only run heads issue atomicMin into the signature (pre-filled with 0xFFFFFFFF)
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__device__ __forceinline__ uint32_t fin32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

// largest r in [0, nsets) with rowptr[r] <= e (rowptr non-decreasing, e < rowptr[nsets])
__device__ __forceinline__ int owner_set(const int* __restrict__ rowptr, int nsets, int e) {
  int lo = 0, hi = nsets;  // invariant: rowptr[lo] <= e < rowptr[hi]
  while (hi - lo > 1) {
    const int mid = (lo + hi) >> 1;
    if (__ldg(rowptr + mid) <= e) lo = mid; else hi = mid;
  }
  return lo;
}

__global__ void __launch_bounds__(256)
minhash_seg_kernel(int nsets, int nnz, int nh, const int* __restrict__ rowptr, const uint32_t* __restrict__ elems,
                   uint32_t* __restrict__ sig) {
  const int lane = threadIdx.x & 31;
  const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; w * 32 < nnz; w += warps) {
    const long long e = w * 32 + lane;
    const bool valid = e < nnz;
    const int set = valid ? owner_set(rowptr, nsets, (int)e) : -1 - lane;  // invalid lanes never match anyone
    const uint32_t x = valid ? __ldg(elems + e) : 0u;
    unsigned join = 0;  // bit k: lane + 2^k is in the same set
#pragma unroll
    for (int k = 0; k < 5; ++k) {
      const int other = __shfl_down_sync(0xffffffffu, set, 1 << k);
      if (lane + (1 << k) < 32 && other == set) join |= 1u << k;
    }
    const int prev = __shfl_up_sync(0xffffffffu, set, 1);
    const bool head = valid && (lane == 0 || prev != set);
    uint32_t* dst = sig + (long long)(valid ? set : 0) * nh;
    for (int i = 0; i < nh; ++i) {
      uint32_t v = valid ? fin32(x ^ (0x9E3779B9u * (uint32_t)(i + 1))) : 0xFFFFFFFFu;
#pragma unroll
      for (int k = 0; k < 5; ++k) {
        const uint32_t o = __shfl_down_sync(0xffffffffu, v, 1 << k);
        if (join & (1u << k)) v = min(v, o);
      }
      if (head) atomicMin(dst + i, v);
    }
  }
}

}  // namespace

extern "C" void minhash_signatures(int nsets, int nnz, int nh, const int* rowptr, const uint32_t* elems, uint32_t* sig,
                                   cudaStream_t stream) {
  if (nsets <= 0 || nh <= 0) return;
  cudaMemsetAsync(sig, 0xFF, sizeof(uint32_t) * (size_t)nsets * (size_t)nh, stream);  // empty sets keep 0xFFFFFFFF
  if (nnz <= 0) return;
  int dev = 0, sms = 1;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  long long grid = ((long long)nnz + 255) / 256;
  if (grid > 16LL * sms) grid = 16LL * sms;
  minhash_seg_kernel<<<(unsigned)grid, 256, 0, stream>>>(nsets, nnz, nh, rowptr, elems, sig);
}
