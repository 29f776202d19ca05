// strategy: naive (weak) — filter in global memory: one thread per key sets its k bits with global atomicOr, then one thread per query tests its k bits with dependent global loads and an early exit (divergent, latency-bound)
#include <cuda_runtime.h>
#include <stdint.h>

__device__ uint32_t naive_fmix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__global__ void bloom_naive_insert(int nkeys, int k, uint32_t m, const uint32_t* keys, uint32_t* f) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= nkeys) return;
  const uint32_t h1 = naive_fmix(keys[j]), h2 = naive_fmix(keys[j] ^ 0x5bd1e995u) | 1u;
  for (int i = 0; i < k; ++i) {
    const uint32_t b = (uint32_t)(((unsigned long long)(h1 + (uint32_t)i * h2) * m) >> 32);
    atomicOr(f + (b >> 5), 1u << (b & 31u));
  }
}

__global__ void bloom_naive_query(int nq, int k, uint32_t m, const uint32_t* queries, const uint32_t* f, uint8_t* hit) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= nq) return;
  const uint32_t h1 = naive_fmix(queries[q]), h2 = naive_fmix(queries[q] ^ 0x5bd1e995u) | 1u;
  uint8_t all = 1;
  for (int i = 0; i < k && all; ++i) {
    const uint32_t b = (uint32_t)(((unsigned long long)(h1 + (uint32_t)i * h2) * m) >> 32);
    all = (f[b >> 5] >> (b & 31u)) & 1u;
  }
  hit[q] = all;
}

extern "C" void bloom_build_query(int nkeys, int nq, int nwords, int k, const uint32_t* keys, const uint32_t* queries,
                                  uint8_t* hit, cudaStream_t stream) {
  if (nq <= 0) return;
  const uint32_t m = 32u * (uint32_t)nwords;
  uint32_t* f = nullptr;
  cudaMallocAsync(&f, sizeof(uint32_t) * (size_t)(nwords > 0 ? nwords : 1), stream);
  cudaMemsetAsync(f, 0, sizeof(uint32_t) * (size_t)(nwords > 0 ? nwords : 1), stream);
  if (nkeys > 0) bloom_naive_insert<<<(nkeys + 255) / 256, 256, 0, stream>>>(nkeys, k, m, keys, f);
  bloom_naive_query<<<(nq + 255) / 256, 256, 0, stream>>>(nq, k, m, queries, f, hit);
  cudaFreeAsync(f, stream);
}
