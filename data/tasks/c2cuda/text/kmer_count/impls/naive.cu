// strategy: naive (weak) — one thread per position rebuilds its k-mer code from k global byte loads and increments the bin with a global atomicAdd
#include <cuda_runtime.h>

__global__ void kmer_naive_kernel(long long n, int k, const unsigned char* seq, unsigned int* counts) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i + k > n) return;
  unsigned int code = 0;
  for (int j = 0; j < k; ++j) code = (code << 2) | (seq[i + j] & 3u);
  atomicAdd(&counts[code], 1u);
}

extern "C" void kmer_count(long long n, int k, const unsigned char* seq, unsigned int* counts, cudaStream_t stream) {
  const size_t bins = (size_t)1 << (2 * k);
  cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int), stream);
  if (n < k) return;
  const int threads = 256;
  const long long positions = n - k + 1;
  kmer_naive_kernel<<<(unsigned int)((positions + threads - 1) / threads), threads, 0, stream>>>(n, k, seq, counts);
}
