// strategy: naive (weak) — one thread per byte with global atomics for the newline and word counts; each line end walks back byte by byte to the previous newline and atomicMax-es the line length
#include <cuda_runtime.h>

__device__ __forceinline__ bool wc_is_ws(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

// i in [0, n]: i < n is a byte; i == n is the end of the last line.
__global__ void wc_naive_kernel(long long n, const unsigned char* data, unsigned long long* stats) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  bool line_end = (i == n);
  if (i < n) {
    const unsigned char c = data[i];
    const bool ws = wc_is_ws(c);
    if (!ws && (i == 0 || wc_is_ws(data[i - 1]))) atomicAdd(&stats[1], 1ull);
    if (c == '\n') {
      atomicAdd(&stats[0], 1ull);
      line_end = true;
    }
  }
  if (line_end) {
    long long j = i - 1;
    while (j >= 0 && data[j] != '\n') --j;
    atomicMax(&stats[2], (unsigned long long)(i - j - 1));
  }
}

extern "C" void wc_stats(long long n, const unsigned char* data, unsigned long long* stats, cudaStream_t stream) {
  cudaMemsetAsync(stats, 0, 3 * sizeof(unsigned long long), stream);
  if (n <= 0) return;
  const int threads = 256;
  long long blocks = (n + 1 + threads - 1) / threads;
  wc_naive_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(n, data, stats);
}
