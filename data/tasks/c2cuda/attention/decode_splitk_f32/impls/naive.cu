// strategy: naive (weak) — one thread per (head, output column): each thread recomputes every score of its head in a max pass and again in an accumulate pass, d-fold redundant K traffic, only heads*d threads
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float decode_naive_score(const float* qh, const float* k, int d, float scale) {
  float dot = 0.0f;
  for (int c = 0; c < d; ++c) dot += qh[c] * k[c];
  return __fmul_rn(dot, scale);  // identical rounding in both passes
}

__global__ void decode_naive_kernel(int heads, int L, int d, float scale, const float* q, const float* K,
                                    const float* V, float* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= heads * d) return;
  const int h = gid / d, c = gid - h * d;
  const float* qh = q + (size_t)h * d;
  const size_t base = (size_t)h * L * d;
  float mx = -INFINITY;
  for (int j = 0; j < L; ++j) mx = fmaxf(mx, decode_naive_score(qh, K + base + (size_t)j * d, d, scale));
  float total = 0.0f, acc = 0.0f;
  for (int j = 0; j < L; ++j) {
    const float p = expf(decode_naive_score(qh, K + base + (size_t)j * d, d, scale) - mx);
    total += p;
    acc += p * V[base + (size_t)j * d + c];
  }
  out[gid] = acc / total;
}

extern "C" void decode_attention_f32(int heads, int L, int d, const float* q, const float* K, const float* V,
                                     float* out, cudaStream_t stream) {
  if (heads <= 0 || L <= 0 || d <= 0) return;
  const int threads = 128;
  const int n = heads * d;
  const float scale = 1.0f / sqrtf((float)d);
  decode_naive_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(heads, L, d, scale, q, K, V, out);
}
