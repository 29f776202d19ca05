// strategy: naive (weak) — one thread per (matrix, right-hand side) runs row-oriented forward substitution entirely in global memory, re-reading T and the already solved X entries for every dot product
#include <cuda_runtime.h>

__global__ void trsm_naive_kernel(int batch, int n, int nrhs, const float* T, const float* B, float* X) {
  const long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= (long long)batch * nrhs) return;
  const long long b = id / nrhs;
  const int c = (int)(id - b * nrhs);
  const float* t = T + b * n * n;
  const float* rhs = B + b * n * nrhs;
  float* x = X + b * n * nrhs;
  for (int i = 0; i < n; ++i) {
    float s = rhs[i * nrhs + c];
    for (int j = 0; j < i; ++j) s -= t[i * n + j] * x[j * nrhs + c];
    x[i * nrhs + c] = s / (t[i * n + i] + (float)(n + 1));
  }
}

extern "C" void trsm_lower_multi_rhs(int batch, int n, int nrhs, const float* T, const float* B, float* X,
                                     cudaStream_t stream) {
  if (batch <= 0 || n <= 0 || nrhs <= 0) return;
  const long long total = (long long)batch * nrhs;
  const int threads = 128;
  trsm_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads, 0, stream>>>(batch, n, nrhs, T, B, X);
}
