// strategy: naive (weak) — one thread per contiguous chunk of 16 elements (uncoalesced), Horner in double precision with coefficients re-read from global memory
#include <cuda_runtime.h>

static constexpr int kChunk = 16;

__global__ void horner_naive_kernel(int n, int deg, const float* coeffs, const float* x, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long begin = t * kChunk;
  long long end = begin + kChunk;
  if (end > n) end = n;
  for (long long i = begin; i < end; ++i) {
    double xi = x[i];
    double acc = coeffs[deg];
    for (int k = deg - 1; k >= 0; --k) acc = acc * xi + coeffs[k];
    out[i] = (float)acc;
  }
}

extern "C" void horner_poly_f32(int n, int deg, const float* coeffs, const float* x, float* out,
                                cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 128;
  long long chunks = ((long long)n + kChunk - 1) / kChunk;
  int blocks = (int)((chunks + threads - 1) / threads);
  horner_naive_kernel<<<blocks, threads, 0, stream>>>(n, deg, coeffs, x, out);
}
