// strategy: naive (weak) — global-memory bitonic sort of 64-bit composites (sign-flipped key << 32 | input index, which makes the unstable network stable), one kernel per compare-exchange step on a power-of-two padded buffer, then a gather of the values
#include <cuda_runtime.h>

__global__ void make_composite(int n, long long np2, const int* keys, unsigned long long* buf) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= np2) return;
  buf[i] = (i < n) ? (((unsigned long long)((unsigned)keys[i] ^ 0x80000000u) << 32) | (unsigned long long)i)
                   : ~0ull;
}

__global__ void bitonic_step(long long np2, long long k, long long j, unsigned long long* a) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= np2) return;
  long long l = i ^ j;
  if (l <= i) return;
  unsigned long long x = a[i], y = a[l];
  bool ascending = (i & k) == 0;
  if ((x > y) == ascending) {
    a[i] = y;
    a[l] = x;
  }
}

__global__ void gather_out(int n, const unsigned long long* buf, const int* vals_in, int* keys_out, int* vals_out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long c = buf[i];
  keys_out[i] = (int)((unsigned)(c >> 32) ^ 0x80000000u);
  vals_out[i] = vals_in[(unsigned)(c & 0xffffffffull)];
}

extern "C" void sort_pairs_i32(int n, const int* keys_in, const int* vals_in, int* keys_out, int* vals_out,
                               cudaStream_t stream) {
  if (n <= 0) return;
  long long np2 = 1;
  while (np2 < n) np2 <<= 1;
  unsigned long long* buf = nullptr;
  cudaMallocAsync((void**)&buf, sizeof(unsigned long long) * (size_t)np2, stream);
  const int threads = 256;
  const int blocks = (int)((np2 + threads - 1) / threads);
  make_composite<<<blocks, threads, 0, stream>>>(n, np2, keys_in, buf);
  for (long long k = 2; k <= np2; k <<= 1)
    for (long long j = k >> 1; j > 0; j >>= 1) bitonic_step<<<blocks, threads, 0, stream>>>(np2, k, j, buf);
  gather_out<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, buf, vals_in, keys_out, vals_out);
  cudaFreeAsync(buf, stream);
}
