// strategy: naive (weak) — one thread per system runs the Thomas algorithm over its own contiguous row range (neighbouring threads are n floats apart: uncoalesced), the forward-sweep coefficients go through a global scratch array
#include <cuda_runtime.h>

__global__ void tridiag_naive_kernel(int batch, int n, const float* a, const float* b, const float* c, const float* d,
                                     float* cp, float* x) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= batch) return;
  const long long o = (long long)s * n;
  float cprev = 0.0f, dprev = 0.0f;
  for (int i = 0; i < n; ++i) {
    const float ai = i > 0 ? a[o + i] : 0.0f;
    const float ci = i < n - 1 ? c[o + i] : 0.0f;
    const float m = b[o + i] - ai * cprev;
    cprev = ci / m;
    dprev = (d[o + i] - ai * dprev) / m;
    cp[o + i] = cprev;
    x[o + i] = dprev;
  }
  for (int i = n - 2; i >= 0; --i) x[o + i] -= cp[o + i] * x[o + i + 1];
}

extern "C" void tridiag_solve(int batch, int n, const float* a, const float* b, const float* c, const float* d, float* x,
                              cudaStream_t stream) {
  if (batch <= 0 || n <= 0) return;
  float* cp = nullptr;
  cudaMallocAsync(&cp, sizeof(float) * (size_t)batch * n, stream);
  const int threads = 128;
  tridiag_naive_kernel<<<(batch + threads - 1) / threads, threads, 0, stream>>>(batch, n, a, b, c, d, cp, x);
  cudaFreeAsync(cp, stream);
}
