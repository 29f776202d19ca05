// strategy: naive (weak) — 0/1 flags, a Hillis-Steele inclusive scan of the flags in global memory (ceil(log2 n) full passes), then a scatter kernel and a zero-fill kernel for the tail
#include <cuda_runtime.h>

__global__ void make_flags(int n, const float* x, int* f) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f[i] = x[i] > 0.0f ? 1 : 0;
}

__global__ void hs_pass(int n, int d, const int* src, int* dst) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = src[i];
  if (i >= d) v += src[i - d];
  dst[i] = v;
}

__global__ void scatter(int n, const float* x, const int* incl, float* out, int* count) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  if (v > 0.0f) out[incl[i] - 1] = v;
  if (i == n - 1) count[0] = incl[i];
}

__global__ void zero_tail(int n, const int* incl, float* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i >= incl[n - 1]) out[i] = 0.0f;
}

extern "C" void compact_positive_f32(int n, const float* x, float* out, int* count, cudaStream_t stream) {
  if (n <= 0) {
    cudaMemsetAsync(count, 0, sizeof(int), stream);
    return;
  }
  const int threads = 256;
  const int blocks = (int)((n + threads - 1) / threads);
  int *a = nullptr, *b = nullptr;
  cudaMallocAsync((void**)&a, sizeof(int) * (size_t)n, stream);
  cudaMallocAsync((void**)&b, sizeof(int) * (size_t)n, stream);
  make_flags<<<blocks, threads, 0, stream>>>(n, x, a);
  int* src = a;
  int* dst = b;
  for (long long d = 1; d < n; d <<= 1) {
    hs_pass<<<blocks, threads, 0, stream>>>(n, (int)d, src, dst);
    int* t = src; src = dst; dst = t;
  }
  scatter<<<blocks, threads, 0, stream>>>(n, x, src, out, count);
  zero_tail<<<blocks, threads, 0, stream>>>(n, src, out);
  cudaFreeAsync(a, stream);
  cudaFreeAsync(b, stream);
}
