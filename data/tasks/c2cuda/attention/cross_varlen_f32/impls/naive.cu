// strategy: naive (weak) — one thread per query row: a max pass over the valid keys, then a second pass that recomputes every score and accumulates straight into its out row in global memory (uncoalesced, no reuse)
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float xattn_naive_score(const float* q, const float* k, int d, float scale) {
  float dot = 0.0f;
  for (int c = 0; c < d; ++c) dot += q[c] * k[c];
  return __fmul_rn(dot, scale);  // same rounding in both passes
}

__global__ void xattn_naive_kernel(int batch, int heads, int lq, int lk, int d, float scale, const float* Q,
                                   const float* K, const float* V, const int* kv_len, float* out) {
  const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (long long)batch * heads * lq) return;
  const long long bh = gid / lq;
  const int i = (int)(gid % lq);
  const int b = (int)(bh / heads);
  int n = kv_len[b];
  if (n > lk) n = lk;
  const float* q = Q + ((size_t)bh * lq + i) * d;
  float* o = out + ((size_t)bh * lq + i) * d;
  const size_t kbase = (size_t)bh * lk * d;
  for (int c = 0; c < d; ++c) o[c] = 0.0f;
  if (n <= 0) return;
  float mx = -INFINITY;
  for (int j = 0; j < n; ++j) mx = fmaxf(mx, xattn_naive_score(q, K + kbase + (size_t)j * d, d, scale));
  float total = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float p = expf(xattn_naive_score(q, K + kbase + (size_t)j * d, d, scale) - mx);
    total += p;
    const float* v = V + kbase + (size_t)j * d;
    for (int c = 0; c < d; ++c) o[c] += p * v[c];
  }
  const float inv = 1.0f / total;
  for (int c = 0; c < d; ++c) o[c] *= inv;
}

extern "C" void cross_attention_varlen_f32(int batch, int heads, int lq, int lk, int d, const float* Q,
                                           const float* K, const float* V, const int* kv_len, float* out,
                                           cudaStream_t stream) {
  if (batch <= 0 || heads <= 0 || lq <= 0 || lk <= 0 || d <= 0) return;
  const long long rows = (long long)batch * heads * lq;
  const int threads = 128;
  const float scale = 1.0f / sqrtf((float)d);
  xattn_naive_kernel<<<(unsigned int)((rows + threads - 1) / threads), threads, 0, stream>>>(batch, heads, lq, lk, d,
                                                                                             scale, Q, K, V, kv_len, out);
}
