// strategy: naive (weak) — one thread per key, every key's rank goes straight to a global atomicMax on its register (all n keys contend on 2^p L2-resident words)
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void hll_naive_kernel(int n, int p, const uint32_t* keys, int* regs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long h = (unsigned long long)keys[i] + 0x9E3779B97F4A7C15ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  const unsigned long long w = h << p;
  const int rank = w == 0 ? 65 - p : __clzll(w) + 1;
  atomicMax(regs + (h >> (64 - p)), rank);
}

extern "C" void hll_registers(int n, int p, const uint32_t* keys, int* regs, cudaStream_t stream) {
  cudaMemsetAsync(regs, 0, sizeof(int) * ((size_t)1 << p), stream);
  if (n <= 0) return;
  hll_naive_kernel<<<(n + 255) / 256, 256, 0, stream>>>(n, p, keys, regs);
}
