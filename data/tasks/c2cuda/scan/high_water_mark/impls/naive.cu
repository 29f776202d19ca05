// strategy: naive (weak) — two Hillis-Steele scans in global memory: ceil(log2 n) passes for the 64-bit prefix sums, then ceil(log2 n) passes for the running max, one kernel per pass
#include <cuda_runtime.h>

__global__ void widen(int n, const int* x, long long* dst) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = x[i];
}

__global__ void sum_pass(int n, int d, const long long* src, long long* dst) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long v = src[i];
  if (i >= d) v += src[i - d];
  dst[i] = v;
}

__global__ void max_pass(int n, int d, const long long* src, long long* dst) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long v = src[i];
  if (i >= d) v = max(v, src[i - d]);
  dst[i] = v;
}

extern "C" void high_water_mark(int n, const int* delta, long long* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  const int blocks = (int)((n + threads - 1) / threads);
  long long* tmp = nullptr;
  cudaMallocAsync((void**)&tmp, sizeof(long long) * (size_t)n, stream);
  long long* cur = tmp;
  long long* other = out;
  widen<<<blocks, threads, 0, stream>>>(n, delta, cur);
  for (long long d = 1; d < n; d <<= 1) {
    sum_pass<<<blocks, threads, 0, stream>>>(n, (int)d, cur, other);
    long long* t = cur; cur = other; other = t;
  }
  for (long long d = 1; d < n; d <<= 1) {
    max_pass<<<blocks, threads, 0, stream>>>(n, (int)d, cur, other);
    long long* t = cur; cur = other; other = t;
  }
  if (cur != out) cudaMemcpyAsync(out, cur, sizeof(long long) * (size_t)n, cudaMemcpyDeviceToDevice, stream);
  cudaFreeAsync(tmp, stream);
}
