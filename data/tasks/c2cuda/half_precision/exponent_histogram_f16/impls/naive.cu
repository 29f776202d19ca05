// strategy: naive (weak) — one thread per element: a 16-bit load, the class found with a branchy bit-length loop, and one global atomicAdd per element straight into the 43 output counters (heavily contended)
#include <cuda_runtime.h>

__device__ int naive_bin(unsigned int p) {
  const unsigned int e = (p >> 10) & 31u;
  unsigned int m = p & 1023u;
  if (e == 31) return m ? 42 : 41;
  if (e > 0) return (int)e + 10;
  int b = 0;
  while (m) {
    ++b;
    m >>= 1;
  }
  return b;
}

__global__ void exponent_histogram_f16_naive_kernel(long long n, const unsigned short* h, unsigned int* hist) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(hist + naive_bin(h[i]), 1u);
}

extern "C" void exponent_histogram_f16(long long n, const unsigned int* h, unsigned int* hist, cudaStream_t stream) {
  cudaMemsetAsync(hist, 0, 43 * sizeof(unsigned int), stream);
  if (n <= 0) return;
  const int threads = 256;
  exponent_histogram_f16_naive_kernel<<<(unsigned int)((n + threads - 1) / threads), threads, 0, stream>>>(
      n, reinterpret_cast<const unsigned short*>(h), hist);
}
