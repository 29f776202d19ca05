// strategy: naive (weak) — each thread owns a contiguous chunk of 64 elements and walks it serially, so at any instant the warp touches 32 addresses 256 bytes apart (no coalescing), and only n/64 threads exist
#include <cuda_runtime.h>

#define CHUNK 64

__global__ void gelu_naive_kernel(int n, const float* x, float* out) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long start = t * CHUNK;
  if (start >= n) return;
  const long long end = start + CHUNK < n ? start + CHUNK : n;
  for (long long i = start; i < end; ++i) {
    const float v = x[i];
    const float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    out[i] = 0.5f * v * (1.f + tanhf(u));
  }
}

extern "C" void gelu_tanh_f32(int n, const float* x, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const long long threads_needed = ((long long)n + CHUNK - 1) / CHUNK;
  const int threads = 128;
  gelu_naive_kernel<<<(int)((threads_needed + threads - 1) / threads), threads, 0, stream>>>(n, x, out);
}
