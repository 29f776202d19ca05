// strategy: naive (weak) — Hillis-Steele scan in global memory: ceil(log2 n) full passes, each a kernel reading and writing the whole array (O(n log n) traffic)
#include <cuda_runtime.h>

__global__ void hs_pass(int n, int d, const int* src, int* dst) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = src[i];
  if (i >= d) v += src[i - d];
  dst[i] = v;
}

__global__ void copy_kernel(int n, const int* src, int* dst) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

extern "C" void inclusive_scan_i32(int n, const int* x, int* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  const int blocks = (int)((n + threads - 1) / threads);
  int passes = 0;
  for (long long d = 1; d < n; d <<= 1) ++passes;
  if (passes == 0) {
    copy_kernel<<<blocks, threads, 0, stream>>>(n, x, out);
    return;
  }
  int* tmp = nullptr;
  cudaMallocAsync((void**)&tmp, sizeof(int) * (size_t)n, stream);
  const int* src = x;
  int p = 0;
  for (long long d = 1; d < n; d <<= 1, ++p) {
    // the last pass must land in out
    int* dst = ((passes - 1 - p) % 2 == 0) ? out : tmp;
    hs_pass<<<blocks, threads, 0, stream>>>(n, (int)d, src, dst);
    src = dst;
  }
  cudaFreeAsync(tmp, stream);
}
