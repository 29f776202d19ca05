// strategy: naive (weak) — one thread per set computes its whole signature: hash functions in the outer loop, so the set's elements are re-read from global memory nh times; neighbouring threads walk different sets (uncoalesced, load-imbalanced)
#include <cuda_runtime.h>
#include <stdint.h>

__device__ uint32_t mh_naive_fmix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__global__ void minhash_naive_kernel(int nsets, int nh, const int* rowptr, const uint32_t* elems, uint32_t* sig) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nsets) return;
  const int b = rowptr[s], e = rowptr[s + 1];
  for (int i = 0; i < nh; ++i) {
    const uint32_t seed = 0x9E3779B9u * (uint32_t)(i + 1);
    uint32_t m = 0xFFFFFFFFu;
    for (int j = b; j < e; ++j) m = min(m, mh_naive_fmix(elems[j] ^ seed));
    sig[(long long)s * nh + i] = m;
  }
}

extern "C" void minhash_signatures(int nsets, int nnz, int nh, const int* rowptr, const uint32_t* elems, uint32_t* sig,
                                   cudaStream_t stream) {
  (void)nnz;
  if (nsets <= 0 || nh <= 0) return;
  minhash_naive_kernel<<<(nsets + 127) / 128, 128, 0, stream>>>(nsets, nh, rowptr, elems, sig);
}
