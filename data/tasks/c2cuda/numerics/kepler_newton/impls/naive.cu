// strategy: naive (weak) — a direct double-precision port of the reference, one thread per element: every Newton step pays a double sin, a double cos and a double division
#include <cuda_runtime.h>

__global__ void kepler_naive_kernel(int n, int iters, const float* M, const float* ecc, float* E) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double m = (double)M[i];
  const double e = (double)ecc[i];
  double x = m + e * sin(m);
  for (int k = 0; k < iters; ++k) x -= (x - e * sin(x) - m) / (1.0 - e * cos(x));
  E[i] = (float)x;
}

extern "C" void kepler_newton(int n, int iters, const float* M, const float* ecc, float* E, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  kepler_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, iters, M, ecc, E);
}
