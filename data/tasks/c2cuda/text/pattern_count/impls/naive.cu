// strategy: naive (weak) — one thread per text position compares the pattern byte by byte from global memory and does a global atomicAdd per match
#include <cuda_runtime.h>

__global__ void pattern_count_naive_kernel(long long n, int m, const unsigned char* text,
                                           const unsigned char* pat, unsigned long long* count) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i + m > n) return;
  for (int j = 0; j < m; ++j)
    if (text[i + j] != pat[j]) return;
  atomicAdd(count, 1ull);
}

extern "C" void pattern_count(long long n, int m, const unsigned char* text, const unsigned char* pat,
                              unsigned long long* count, cudaStream_t stream) {
  cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream);
  if (m < 1 || (long long)m > n) return;
  const int threads = 256;
  long long positions = n - m + 1;
  long long blocks = (positions + threads - 1) / threads;
  pattern_count_naive_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(n, m, text, pat, count);
}
