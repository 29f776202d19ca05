// strategy: naive (weak) — one thread per integral walks all m+1 points alone, a full-precision expf and cosf per point and a single serial float accumulator
#include <cuda_runtime.h>

__global__ void simpson_naive_kernel(int n, int m, const float* a, const float* b, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float h = 1.0f / (float)m;
  const float ai = a[i], bi = b[i];
  float s = 0.0f;
  for (int k = 0; k <= m; ++k) {
    const float x = (float)k * h;
    const float w = (k == 0 || k == m) ? 1.0f : ((k & 1) ? 4.0f : 2.0f);
    s += w * expf(-ai * x * x) * cosf(bi * x);
  }
  out[i] = s * h / 3.0f;
}

extern "C" void simpson_gauss_cos(int n, int m, const float* a, const float* b, float* out, cudaStream_t stream) {
  if (n <= 0) return;
  const int threads = 256;
  simpson_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, m, a, b, out);
}
