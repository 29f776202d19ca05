// strategy: naive (weak) — each thread multiplies a contiguous run of 32 complex numbers with scalar loads; strided, uncoalesced accesses
#include <cuda_runtime.h>

static constexpr int kChunk = 32;

__global__ void cmul_naive_kernel(int n, const float* a, const float* b, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long begin = t * kChunk;
  long long end = begin + kChunk;
  if (end > n) end = n;
  for (long long k = begin; k < end; ++k) {
    float ar = a[2 * k], ai = a[2 * k + 1];
    float br = b[2 * k], bi = b[2 * k + 1];
    out[2 * k] = ar * br - ai * bi;
    out[2 * k + 1] = ar * bi + ai * br;
  }
}

extern "C" void complex_mul_f32(int n, const float* a, const float* b, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  long long chunks = ((long long)n + kChunk - 1) / kChunk;
  int blocks = (int)((chunks + threads - 1) / threads);
  cmul_naive_kernel<<<blocks, threads, 0, stream>>>(n, a, b, out);
}
