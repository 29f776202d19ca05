// strategy: naive (weak) — one thread per (sequence, head, output column): it walks the block table token by token twice (max pass, then accumulate pass), recomputing every score on its own; d-fold redundant K reads
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float paged_naive_score(const float* qh, const float* k, int d, float scale) {
  float dot = 0.0f;
  for (int c = 0; c < d; ++c) dot += qh[c] * k[c];
  return __fmul_rn(dot, scale);  // identical rounding in both passes
}

__global__ void paged_naive_kernel(int seqs, int heads, int d, int block_size, int max_blocks, float scale,
                                   const float* q, const float* K_pool, const float* V_pool, const int* block_table,
                                   const int* ctx, float* out) {
  const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (long long)seqs * heads * d) return;
  const int c = (int)(gid % d);
  const int sh = (int)(gid / d);
  const int h = sh % heads, s = sh / heads;
  int n = ctx[s];
  if (n > max_blocks * block_size) n = max_blocks * block_size;
  if (n <= 0) {
    out[gid] = 0.0f;
    return;
  }
  const float* qh = q + (size_t)sh * d;
  const int* bt = block_table + (size_t)s * max_blocks;
  float mx = -INFINITY;
  for (int t = 0; t < n; ++t) {
    const size_t row = (((size_t)bt[t / block_size] * block_size + t % block_size) * heads + h) * d;
    mx = fmaxf(mx, paged_naive_score(qh, K_pool + row, d, scale));
  }
  float total = 0.0f, acc = 0.0f;
  for (int t = 0; t < n; ++t) {
    const size_t row = (((size_t)bt[t / block_size] * block_size + t % block_size) * heads + h) * d;
    const float p = expf(paged_naive_score(qh, K_pool + row, d, scale) - mx);
    total += p;
    acc += p * V_pool[row + c];
  }
  out[gid] = acc / total;
}

extern "C" void paged_decode_attention_f32(int seqs, int heads, int d, int block_size, int max_blocks,
                                           int pool_blocks, const float* q, const float* K_pool,
                                           const float* V_pool, const int* block_table, const int* ctx, float* out,
                                           cudaStream_t stream) {
  (void)pool_blocks;
  if (seqs <= 0 || heads <= 0 || d <= 0 || block_size <= 0) return;
  const long long n = (long long)seqs * heads * d;
  const int threads = 128;
  const float scale = 1.0f / sqrtf((float)d);
  paged_naive_kernel<<<(unsigned int)((n + threads - 1) / threads), threads, 0, stream>>>(
      seqs, heads, d, block_size, max_blocks, scale, q, K_pool, V_pool, block_table, ctx, out);
}
