// strategy: naive (weak) — one thread per byte, every byte does a global atomicAdd on one of the 256 counters
#include <cuda_runtime.h>

__global__ void hist256_naive_kernel(long long n, const unsigned char* data, unsigned int* hist) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[data[i]], 1u);
}

extern "C" void hist256_u8(long long n, const unsigned char* data, unsigned int* hist,
                           cudaStream_t stream) {
  cudaMemsetAsync(hist, 0, 256 * sizeof(unsigned int), stream);
  if (n <= 0) return;
  const int threads = 256;
  long long blocks = (n + threads - 1) / threads;
  hist256_naive_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(n, data, hist);
}
