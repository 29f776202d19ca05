// strategy: naive (weak) — one thread per query row does everything: three passes over all keys recomputing every dot product (max, sum, write), keys read serially, stores strided by m across the warp
#include <cuda_runtime.h>
#include <math.h>

__global__ void qk_softmax_naive_kernel(int n, int m, int d, float scale, const float* q, const float* k, float* p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* qi = q + (long long)i * d;
  float mx = -INFINITY;
  for (int j = 0; j < m; ++j) {
    float dot = 0.0f;
    for (int t = 0; t < d; ++t) dot += qi[t] * k[(long long)j * d + t];
    mx = fmaxf(mx, scale * dot);
  }
  float sum = 0.0f;
  for (int j = 0; j < m; ++j) {
    float dot = 0.0f;
    for (int t = 0; t < d; ++t) dot += qi[t] * k[(long long)j * d + t];
    sum += expf(scale * dot - mx);
  }
  for (int j = 0; j < m; ++j) {
    float dot = 0.0f;
    for (int t = 0; t < d; ++t) dot += qi[t] * k[(long long)j * d + t];
    p[(long long)i * m + j] = expf(scale * dot - mx) / sum;
  }
}

extern "C" void qk_softmax_f32(int n, int m, int d, float scale, const float* q, const float* k, float* p,
                               cudaStream_t stream) {
  if (n <= 0 || m <= 0) return;
  const int threads = 128;
  qk_softmax_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, m, d, scale, q, k, p);
}
