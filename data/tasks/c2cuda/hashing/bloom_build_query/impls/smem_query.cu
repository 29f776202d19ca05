// strategy: smem_query — two phases: keys inserted into a global filter with atomicOr, then a persistent grid copies the whole filter into shared memory once per CTA (coalesced) and answers queries grid-stride with branch-free k-probe tests against shared memory; filters larger than the shared-memory limit are probed through the read-only cache instead
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__device__ __forceinline__ uint32_t finalize32(uint32_t h) {
  h = (h ^ (h >> 16)) * 0x85ebca6bu;
  h = (h ^ (h >> 13)) * 0xc2b2ae35u;
  return h ^ (h >> 16);
}

__device__ __forceinline__ uint32_t bit_of(uint32_t h1, uint32_t h2, int i, uint32_t m) {
  return __umulhi(h1 + (uint32_t)i * h2, m);  // ((uint64)x * m) >> 32
}

__global__ void __launch_bounds__(256)
bloom_insert_kernel(int nkeys, int k, uint32_t m, const uint32_t* __restrict__ keys, uint32_t* __restrict__ f) {
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < nkeys; j += gridDim.x * blockDim.x) {
    const uint32_t x = __ldg(keys + j);
    const uint32_t h1 = finalize32(x), h2 = finalize32(x ^ 0x5bd1e995u) | 1u;
    for (int i = 0; i < k; ++i) {
      const uint32_t b = bit_of(h1, h2, i, m);
      atomicOr(f + (b >> 5), 1u << (b & 31u));
    }
  }
}

template <bool kShared>
__global__ void __launch_bounds__(512)
bloom_query_kernel(int nq, int nwords, int k, uint32_t m, const uint32_t* __restrict__ queries,
                   const uint32_t* __restrict__ gf, uint8_t* __restrict__ hit) {
  extern __shared__ uint32_t sf[];
  const uint32_t* f = gf;
  if (kShared) {
    for (int w = threadIdx.x; w < nwords; w += blockDim.x) sf[w] = __ldg(gf + w);
    __syncthreads();
    f = sf;
  }
  for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < nq; q += gridDim.x * blockDim.x) {
    const uint32_t x = __ldg(queries + q);
    const uint32_t h1 = finalize32(x), h2 = finalize32(x ^ 0x5bd1e995u) | 1u;
    uint32_t all = 1u;
    for (int i = 0; i < k; ++i) {
      const uint32_t b = bit_of(h1, h2, i, m);
      all &= (kShared ? f[b >> 5] : __ldg(f + (b >> 5))) >> (b & 31u);
    }
    hit[q] = (uint8_t)(all & 1u);
  }
}

}  // namespace

extern "C" void bloom_build_query(int nkeys, int nq, int nwords, int k, const uint32_t* keys, const uint32_t* queries,
                                  uint8_t* hit, cudaStream_t stream) {
  if (nq <= 0) return;
  const uint32_t m = 32u * (uint32_t)nwords;
  const size_t fbytes = sizeof(uint32_t) * (size_t)(nwords > 0 ? nwords : 1);
  uint32_t* f = nullptr;
  cudaMallocAsync(&f, fbytes, stream);
  cudaMemsetAsync(f, 0, fbytes, stream);
  int dev = 0, sms = 1, smem_max = 48 * 1024;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (nkeys > 0) {
    int gi = (nkeys + 255) / 256;
    if (gi > 8 * sms) gi = 8 * sms;
    bloom_insert_kernel<<<gi, 256, 0, stream>>>(nkeys, k, m, keys, f);
  }
  long long gq = ((long long)nq + 511) / 512;
  if (gq > 4LL * sms) gq = 4LL * sms;
  if (fbytes <= (size_t)smem_max) {
    cudaFuncSetAttribute(bloom_query_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)fbytes);
    bloom_query_kernel<true><<<(unsigned)gq, 512, fbytes, stream>>>(nq, nwords, k, m, queries, f, hit);
  } else {
    bloom_query_kernel<false><<<(unsigned)gq, 512, 0, stream>>>(nq, nwords, k, m, queries, f, hit);
  }
  cudaFreeAsync(f, stream);
}
