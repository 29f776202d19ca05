// strategy: warp_per_head — one warp per (sequence, head): lanes own interleaved columns, the warp walks the sequence page by page (one block-table lookup per page), coalesced d-wide K/V row reads, shuffle dot products and a single-pass online softmax
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarps = 4;
constexpr int kMaxT = 4;  // d <= 128

__global__ void __launch_bounds__(kWarps * 32)
paged_wph_kernel(int seqs, int heads, int d, int block_size, int max_blocks, float scale, const float* __restrict__ q,
                 const float* __restrict__ K_pool, const float* __restrict__ V_pool,
                 const int* __restrict__ block_table, const int* __restrict__ ctx, float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long sh = (long long)blockIdx.x * kWarps + (threadIdx.x >> 5);
  if (sh >= (long long)seqs * heads) return;  // whole warp
  const int s = (int)(sh / heads), h = (int)(sh % heads);
  int n = __ldg(ctx + s);
  if (n > max_blocks * block_size) n = max_blocks * block_size;
  float* o = out + (size_t)sh * d;
  if (n <= 0) {
    for (int c = lane; c < d; c += 32) o[c] = 0.0f;
    return;
  }
  float qr[kMaxT], acc[kMaxT];
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    qr[t] = c < d ? __ldg(q + (size_t)sh * d + c) : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  const int* bt = block_table + (size_t)s * max_blocks;
  const size_t tok_stride = (size_t)heads * d;
  for (int pg = 0; pg * block_size < n; ++pg) {
    const int blk = __ldg(bt + pg);
    const int cnt = min(block_size, n - pg * block_size);
    const float* kp = K_pool + (size_t)blk * block_size * tok_stride + (size_t)h * d;
    const float* vp = V_pool + (size_t)blk * block_size * tok_stride + (size_t)h * d;
    for (int slot = 0; slot < cnt; ++slot) {
      const float* k = kp + slot * tok_stride;
      float part = 0.0f;
#pragma unroll
      for (int t = 0; t < kMaxT; ++t) {
        const int c = lane + 32 * t;
        if (c < d) part += qr[t] * __ldg(k + c);
      }
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) part += __shfl_xor_sync(0xffffffffu, part, off);
      const float sc = __fmul_rn(part, scale);
      if (sc > m) {  // warp-uniform
        const float corr = expf(m - sc);
        l *= corr;
#pragma unroll
        for (int t = 0; t < kMaxT; ++t) acc[t] *= corr;
        m = sc;
      }
      const float p = expf(sc - m);
      l += p;
      const float* v = vp + slot * tok_stride;
#pragma unroll
      for (int t = 0; t < kMaxT; ++t) {
        const int c = lane + 32 * t;
        if (c < d) acc[t] += p * __ldg(v + c);
      }
    }
  }
  const float inv = 1.0f / l;
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    if (c < d) o[c] = acc[t] * inv;
  }
}

}  // namespace

extern "C" void paged_decode_attention_f32(int seqs, int heads, int d, int block_size, int max_blocks,
                                           int pool_blocks, const float* q, const float* K_pool,
                                           const float* V_pool, const int* block_table, const int* ctx, float* out,
                                           cudaStream_t stream) {
  (void)pool_blocks;
  if (seqs <= 0 || heads <= 0 || d <= 0 || block_size <= 0) return;
  const long long rows = (long long)seqs * heads;
  const float scale = 1.0f / sqrtf((float)d);
  paged_wph_kernel<<<(unsigned int)((rows + kWarps - 1) / kWarps), kWarps * 32, 0, stream>>>(
      seqs, heads, d, block_size, max_blocks, scale, q, K_pool, V_pool, block_table, ctx, out);
}
