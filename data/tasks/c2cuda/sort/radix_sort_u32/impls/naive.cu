// strategy: naive (weak) — global-memory bitonic sort on a power-of-two padded copy: one kernel per (k, j) compare-exchange step, O(n log^2 n) traffic, then the first n keys are copied out
#include <cuda_runtime.h>

__global__ void pad_copy(int n, long long np2, const unsigned int* in, unsigned int* buf) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < np2) buf[i] = (i < n) ? in[i] : 0xffffffffu;
}

__global__ void bitonic_step(long long np2, long long k, long long j, unsigned int* a) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= np2) return;
  long long l = i ^ j;
  if (l <= i) return;
  unsigned int x = a[i], y = a[l];
  bool ascending = (i & k) == 0;
  if ((x > y) == ascending) {
    a[i] = y;
    a[l] = x;
  }
}

__global__ void copy_out(int n, const unsigned int* buf, unsigned int* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buf[i];
}

extern "C" void sort_u32(int n, const unsigned int* keys, unsigned int* out, cudaStream_t stream) {
  if (n <= 0) return;
  long long np2 = 1;
  while (np2 < n) np2 <<= 1;
  unsigned int* buf = nullptr;
  cudaMallocAsync((void**)&buf, sizeof(unsigned int) * (size_t)np2, stream);
  const int threads = 256;
  const int blocks = (int)((np2 + threads - 1) / threads);
  pad_copy<<<blocks, threads, 0, stream>>>(n, np2, keys, buf);
  for (long long k = 2; k <= np2; k <<= 1)
    for (long long j = k >> 1; j > 0; j >>= 1) bitonic_step<<<blocks, threads, 0, stream>>>(np2, k, j, buf);
  copy_out<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, buf, out);
  cudaFreeAsync(buf, stream);
}
