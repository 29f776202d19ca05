// strategy: naive (weak) — each thread walks a private contiguous chunk of 32 doubles, so warp accesses are strided (uncoalesced)
#include <cuda_runtime.h>

static constexpr int kChunk = 32;

__global__ void axpby_naive_kernel(int n, double alpha, double beta, const double* x, const double* y,
                                   double* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long begin = t * kChunk;
  long long end = begin + kChunk;
  if (end > n) end = n;
  for (long long i = begin; i < end; ++i) out[i] = alpha * x[i] + beta * y[i];
}

extern "C" void axpby_f64(int n, double alpha, double beta, const double* x, const double* y, double* out,
                          cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  long long chunks = ((long long)n + kChunk - 1) / kChunk;
  int blocks = (int)((chunks + threads - 1) / threads);
  axpby_naive_kernel<<<blocks, threads, 0, stream>>>(n, alpha, beta, x, y, out);
}
