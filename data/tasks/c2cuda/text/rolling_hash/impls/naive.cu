// strategy: naive (weak) — one thread per window recomputes the whole Horner sum over its w bytes from global memory (O(n*w) work)
#include <cuda_runtime.h>

__global__ void rolling_hash_naive_kernel(long long n, int w, unsigned long long B, const unsigned char* text,
                                          unsigned long long* h) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i + w > n) return;
  unsigned long long acc = 0;
  for (int j = 0; j < w; ++j) acc = acc * B + (unsigned long long)text[i + j] + 1ull;
  h[i] = acc;
}

extern "C" void rolling_hash(long long n, int w, unsigned long long B, const unsigned char* text,
                             unsigned long long* h, cudaStream_t stream) {
  if (w < 1 || w > n) return;
  const long long nout = n - w + 1;
  const int threads = 256;
  rolling_hash_naive_kernel<<<(unsigned int)((nout + threads - 1) / threads), threads, 0, stream>>>(n, w, B, text, h);
}
