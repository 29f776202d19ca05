// strategy: naive (weak) — one thread per lag runs the whole n-term dot product serially from global memory (only `lags` threads busy, one long dependent double-precision accumulation chain each; a float chain this long would drift on lag 0)
#include <cuda_runtime.h>

__global__ void autocorr_naive_kernel(int n, int lags, const float* x, float* r) {
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= lags) return;
  double s = 0.0;
  for (int i = 0; i + l < n; ++i) s += (double)x[i] * (double)x[i + l];
  r[l] = (float)s;
}

extern "C" void autocorr_f32(int n, int lags, const float* x, float* r, cudaStream_t stream) {
  if (lags <= 0) return;
  const int threads = 128;
  autocorr_naive_kernel<<<(lags + threads - 1) / threads, threads, 0, stream>>>(n, lags, x, r);
}
