// strategy: naive (weak) — one thread per output word recomputes its whole 4-word Philox block and keeps one word (4x redundant rounds), scalar 4-byte stores
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void philox_naive_kernel(int n, uint32_t k0, uint32_t k1, uint32_t* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long g = i >> 2;
  uint32_t c0 = (uint32_t)g, c1 = (uint32_t)((unsigned long long)g >> 32), c2 = 0u, c3 = 0u;
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    unsigned long long p0 = (unsigned long long)0xD2511F53u * c0;
    unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
  }
  int w = (int)(i & 3);
  out[i] = w == 0 ? c0 : (w == 1 ? c1 : (w == 2 ? c2 : c3));
}

extern "C" void philox_fill_u32(int n, unsigned long long seed, uint32_t* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  philox_naive_kernel<<<(unsigned int)(((long long)n + threads - 1) / threads), threads, 0, stream>>>(
      n, (uint32_t)seed, (uint32_t)(seed >> 32), out);
}
