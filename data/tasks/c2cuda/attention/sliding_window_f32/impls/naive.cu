// strategy: naive (weak) — one thread per query row: a max pass over its window of keys, then a second pass that recomputes every score and accumulates straight into its out row in global memory (uncoalesced, no reuse)
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float swa_naive_score(const float* q, const float* k, int d, float scale) {
  float dot = 0.0f;
  for (int c = 0; c < d; ++c) dot += q[c] * k[c];
  return __fmul_rn(dot, scale);  // same rounding in both passes
}

__global__ void swa_naive_kernel(int heads, int seq, int d, int w, float scale, const float* Q, const float* K,
                                    const float* V, float* out) {
  long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (long long)heads * seq) return;
  const int h = (int)(gid / seq);
  const int i = (int)(gid % seq);
  const size_t base = (size_t)h * seq * d;
  const float* q = Q + base + (size_t)i * d;
  float* o = out + base + (size_t)i * d;
  const int lo = max(0, i - w + 1);
  float mx = -INFINITY;
  for (int j = lo; j <= i; ++j) mx = fmaxf(mx, swa_naive_score(q, K + base + (size_t)j * d, d, scale));
  for (int c = 0; c < d; ++c) o[c] = 0.0f;
  float total = 0.0f;
  for (int j = lo; j <= i; ++j) {
    const float p = expf(swa_naive_score(q, K + base + (size_t)j * d, d, scale) - mx);
    total += p;
    const float* v = V + base + (size_t)j * d;
    for (int c = 0; c < d; ++c) o[c] += p * v[c];
  }
  const float inv = 1.0f / total;
  for (int c = 0; c < d; ++c) o[c] *= inv;
}

extern "C" void sliding_window_attention_f32(int heads, int seq, int d, int w, const float* Q, const float* K, const float* V,
                                     float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  if (w < 1) w = 1;
  const long long rows = (long long)heads * seq;
  const int threads = 128;
  const float scale = 1.0f / sqrtf((float)d);
  swa_naive_kernel<<<(unsigned int)((rows + threads - 1) / threads), threads, 0, stream>>>(heads, seq, d, w, scale, Q,
                                                                                              K, V, out);
}
