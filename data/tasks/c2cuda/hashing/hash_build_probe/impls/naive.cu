// strategy: naive (weak) — structure-of-arrays table (key[] and index[] in separate global arrays): every build probe step is an atomicCAS on the key array, the winning index is kept with a second atomicMax, and every lookup step touches two arrays; one thread per key / per query
#include <cuda_runtime.h>
#include <stdint.h>

__device__ uint32_t naive_hash(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__global__ void naive_build(int nk, unsigned long long mask, const int* keys, int* tkey, int* tidx) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nk) return;
  const int k = keys[i];
  unsigned long long s = naive_hash((uint32_t)k) & mask;
  while (true) {
    const int prev = atomicCAS(tkey + s, -1, k);
    if (prev == -1 || prev == k) {
      atomicMax(tidx + s, i);
      return;
    }
    s = (s + 1) & mask;
  }
}

__global__ void naive_probe(int nq, unsigned long long mask, const int* queries, const int* tkey, const int* tidx,
                            const int* vals, int* out) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= nq) return;
  const int k = queries[q];
  unsigned long long s = naive_hash((uint32_t)k) & mask;
  int r = -1;
  while (tkey[s] != -1) {
    if (tkey[s] == k) {
      r = vals[tidx[s]];
      break;
    }
    s = (s + 1) & mask;
  }
  out[q] = r;
}

extern "C" void hash_build_probe(int nk, int nq, const int* keys, const int* vals, const int* queries, int* out,
                                 cudaStream_t stream) {
  if (nq <= 0) return;
  size_t cap = 16;
  while (cap < 2 * (size_t)nk) cap <<= 1;
  int *tkey = nullptr, *tidx = nullptr;
  cudaMallocAsync(&tkey, cap * sizeof(int), stream);
  cudaMallocAsync(&tidx, cap * sizeof(int), stream);
  cudaMemsetAsync(tkey, 0xFF, cap * sizeof(int), stream);  // -1 = empty
  cudaMemsetAsync(tidx, 0xFF, cap * sizeof(int), stream);
  if (nk > 0) naive_build<<<(nk + 255) / 256, 256, 0, stream>>>(nk, cap - 1, keys, tkey, tidx);
  naive_probe<<<(nq + 255) / 256, 256, 0, stream>>>(nq, cap - 1, queries, tkey, tidx, vals, out);
  cudaFreeAsync(tkey, stream);
  cudaFreeAsync(tidx, stream);
}
