// strategy: naive (weak) — one thread per query row: a max pass over its keys, then a second pass that recomputes every score and accumulates straight into its out row in global memory (uncoalesced, no reuse)
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float causal_naive_score(const float* q, const float* k, int d, float scale) {
  float dot = 0.0f;
  for (int c = 0; c < d; ++c) dot += q[c] * k[c];
  return __fmul_rn(dot, scale);  // same rounding in both passes
}

__global__ void causal_naive_kernel(int heads, int seq, int d, float scale, const float* Q, const float* K,
                                    const float* V, float* out) {
  long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (long long)heads * seq) return;
  const int h = (int)(gid / seq);
  const int i = (int)(gid % seq);
  const size_t base = (size_t)h * seq * d;
  const float* q = Q + base + (size_t)i * d;
  float* o = out + base + (size_t)i * d;
  float mx = -INFINITY;
  for (int j = 0; j <= i; ++j) mx = fmaxf(mx, causal_naive_score(q, K + base + (size_t)j * d, d, scale));
  for (int c = 0; c < d; ++c) o[c] = 0.0f;
  float total = 0.0f;
  for (int j = 0; j <= i; ++j) {
    const float p = expf(causal_naive_score(q, K + base + (size_t)j * d, d, scale) - mx);
    total += p;
    const float* v = V + base + (size_t)j * d;
    for (int c = 0; c < d; ++c) o[c] += p * v[c];
  }
  const float inv = 1.0f / total;
  for (int c = 0; c < d; ++c) o[c] *= inv;
}

extern "C" void causal_attention_f32(int heads, int seq, int d, const float* Q, const float* K, const float* V,
                                     float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  const long long rows = (long long)heads * seq;
  const int threads = 128;
  const float scale = 1.0f / sqrtf((float)d);
  causal_naive_kernel<<<(unsigned int)((rows + threads - 1) / threads), threads, 0, stream>>>(heads, seq, d, scale, Q,
                                                                                              K, V, out);
}
