// strategy: naive (weak) — one thread per key, one global byte load per step (each thread walks its own key, warp accesses klen bytes apart), generic 64-bit multiply
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void fnv1a64_naive_kernel(int n, int klen, const uint8_t* keys, unsigned long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint8_t* k = keys + (long long)i * klen;
  uint64_t h = 0xcbf29ce484222325ull;
  for (int j = 0; j < klen; ++j) h = (h ^ k[j]) * 0x100000001b3ull;
  out[i] = h;
}

extern "C" void fnv1a64_keys(int n, int klen, const uint8_t* keys, unsigned long long* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  fnv1a64_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, klen, keys, out);
}
