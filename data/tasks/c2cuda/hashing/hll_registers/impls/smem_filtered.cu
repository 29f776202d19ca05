// strategy: smem_filtered — persistent CTAs keep a private int copy of all 2^p registers in shared memory, stream keys with 16-byte loads, and issue a shared atomicMax only when the rank beats the register's current value (ranks are geometric, so almost every key is filtered out by a plain read); each CTA then merges its non-zero registers into the output with global atomicMax; register files larger than shared memory use the same filter against global memory
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int kThreads = 512;

__device__ __forceinline__ void hash_key(uint32_t x, int p, unsigned& reg, int& rank) {
  unsigned long long h = (unsigned long long)x + 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdull;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  reg = (unsigned)(h >> (64 - p));
  const unsigned long long w = h << p;
  rank = w ? __clzll(w) + 1 : 65 - p;
}

__device__ __forceinline__ void offer(int* r, unsigned reg, int rank) {
  if (*(volatile int*)(r + reg) < rank) atomicMax(r + reg, rank);
}

template <bool kShared>
__global__ void __launch_bounds__(kThreads)
hll_filtered_kernel(int n, int p, const uint32_t* __restrict__ keys, int* __restrict__ regs) {
  extern __shared__ int sreg[];
  const int m = 1 << p;
  int* r = regs;
  if (kShared) {
    for (int j = threadIdx.x; j < m; j += blockDim.x) sreg[j] = 0;
    __syncthreads();
    r = sreg;
  }
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long t0 = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long n4 = (reinterpret_cast<uintptr_t>(keys) & 15u) ? 0 : n / 4;
  const uint4* k4 = reinterpret_cast<const uint4*>(keys);
  unsigned reg;
  int rank;
  for (long long v = t0; v < n4; v += stride) {
    const uint4 x = __ldcs(k4 + v);
    hash_key(x.x, p, reg, rank); offer(r, reg, rank);
    hash_key(x.y, p, reg, rank); offer(r, reg, rank);
    hash_key(x.z, p, reg, rank); offer(r, reg, rank);
    hash_key(x.w, p, reg, rank); offer(r, reg, rank);
  }
  for (long long i = 4 * n4 + t0; i < n; i += stride) {
    hash_key(__ldg(keys + i), p, reg, rank);
    offer(r, reg, rank);
  }
  if (kShared) {
    __syncthreads();
    for (int j = threadIdx.x; j < m; j += blockDim.x) {
      const int v = sreg[j];
      if (v > 0) atomicMax(regs + j, v);
    }
  }
}

}  // namespace

extern "C" void hll_registers(int n, int p, const uint32_t* keys, int* regs, cudaStream_t stream) {
  const size_t rbytes = sizeof(int) * ((size_t)1 << p);
  cudaMemsetAsync(regs, 0, rbytes, stream);
  if (n <= 0) return;
  int dev = 0, sms = 1, smem_max = 48 * 1024;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  long long grid = ((long long)n + 4LL * kThreads - 1) / (4LL * kThreads);
  if (grid > 2LL * sms) grid = 2LL * sms;
  if (rbytes <= (size_t)smem_max) {
    cudaFuncSetAttribute(hll_filtered_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)rbytes);
    hll_filtered_kernel<true><<<(unsigned)grid, kThreads, rbytes, stream>>>(n, p, keys, regs);
  } else {
    hll_filtered_kernel<false><<<(unsigned)grid, kThreads, 0, stream>>>(n, p, keys, regs);
  }
}
