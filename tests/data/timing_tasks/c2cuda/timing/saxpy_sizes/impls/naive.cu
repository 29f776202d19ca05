// strategy: naive (weak) — each thread owns a contiguous chunk of 64 elements, so a warp's loads are strided and uncoalesced
#include <cuda_runtime.h>

static constexpr int kChunk = 64;

__global__ void saxpy_naive_kernel(int n, float a, const float* x, const float* y, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long begin = t * kChunk;
  long long end = begin + kChunk;
  if (end > n) end = n;
  for (long long i = begin; i < end; ++i) out[i] = a * x[i] + y[i];
}

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  long long chunks = ((long long)n + kChunk - 1) / kChunk;
  int blocks = (int)((chunks + threads - 1) / threads);
  saxpy_naive_kernel<<<blocks, threads, 0, stream>>>(n, a, x, y, out);
}
