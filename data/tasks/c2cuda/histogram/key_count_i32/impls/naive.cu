// strategy: naive (weak) — each thread counts a contiguous chunk of 64 keys (uncoalesced loads) with one global atomicAdd per key
#include <cuda_runtime.h>

constexpr int kChunk = 64;

__global__ void key_count_naive_kernel(int n, int k, const int* keys, int* table) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long start = t * kChunk;
  if (start >= n) return;
  long long end = start + kChunk < n ? start + kChunk : n;
  for (long long i = start; i < end; ++i) {
    int key = keys[i];
    if (key >= 0 && key < k) atomicAdd(&table[key], 1);
  }
}

extern "C" void key_count_i32(int n, int k, const int* keys, int* table, cudaStream_t stream) {
  if (k <= 0) return;
  cudaMemsetAsync(table, 0, (size_t)k * sizeof(int), stream);
  if (n <= 0) return;
  const int threads = 128;
  long long nthreads = ((long long)n + kChunk - 1) / kChunk;
  long long blocks = (nthreads + threads - 1) / threads;
  key_count_naive_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(n, k, keys, table);
}
