// strategy: naive (weak) — bitonic sorting network over 64-bit (key << 32 | index) words padded to a power of two, one global-memory kernel launch per (k, j) stage (log^2 n passes over the whole array)
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void perm_init_kernel(long long N, int n, uint32_t s0, uint32_t s1, unsigned long long* a) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  if (i < n) {
    uint32_t h = ((uint32_t)i * 0x9E3779B1u + s0) ^ s1;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    a[i] = ((unsigned long long)h << 32) | (unsigned int)i;
  } else {
    a[i] = ~0ull;  // padding sorts last
  }
}

__global__ void bitonic_stage_kernel(long long half, long long k, long long j, unsigned long long* a) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= half) return;
  long long i = 2 * j * (t / j) + (t % j);
  long long l = i + j;
  bool up = (i & k) == 0;
  unsigned long long x = a[i], y = a[l];
  if ((x > y) == up) {
    a[i] = y;
    a[l] = x;
  }
}

__global__ void perm_extract_kernel(int n, const unsigned long long* a, int* perm) {
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) perm[r] = (int)(unsigned int)(a[r] & 0xFFFFFFFFull);
}

extern "C" void random_permutation(int n, unsigned long long seed, int* perm, cudaStream_t stream) {
  if (n <= 0) return;
  long long N = 1;
  while (N < n) N <<= 1;
  unsigned long long* a = nullptr;
  cudaMallocAsync((void**)&a, sizeof(unsigned long long) * (size_t)N, stream);
  const int threads = 256;
  perm_init_kernel<<<(unsigned int)((N + threads - 1) / threads), threads, 0, stream>>>(N, n, (uint32_t)seed,
                                                                                      (uint32_t)(seed >> 32), a);
  const long long half = N / 2;
  for (long long k = 2; k <= N; k <<= 1)
    for (long long j = k / 2; j > 0; j >>= 1)
      bitonic_stage_kernel<<<(unsigned int)((half + threads - 1) / threads), threads, 0, stream>>>(half, k, j, a);
  perm_extract_kernel<<<(unsigned int)(((long long)n + threads - 1) / threads), threads, 0, stream>>>(n, a, perm);
  cudaFreeAsync(a, stream);
}
