// strategy: split_pages — flash-decoding over the paged cache: grid = token chunks x (sequence, head) so even a few long sequences fill the GPU; each 4-warp block streams its chunk (two tokens per warp iteration, streaming loads, per-token block-table translation), writes a partial (max, sum, weighted V) state to scratch, and a second kernel merges the chunks per (sequence, head) in fixed order; chunks past a sequence's context are empty and skipped
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarps = 4;
constexpr int kMaxT = 4;  // d <= 128

__device__ __forceinline__ size_t paged_row(const int* bt, int t, int block_size, int heads, int h, int d) {
  return (((size_t)__ldg(bt + t / block_size) * block_size + t % block_size) * heads + h) * (size_t)d;
}

__global__ void __launch_bounds__(kWarps * 32)
paged_split_partial(int heads, int d, int block_size, int max_blocks, int chunk, float scale,
                    const float* __restrict__ q, const float* __restrict__ K_pool, const float* __restrict__ V_pool,
                    const int* __restrict__ block_table, const int* __restrict__ ctx, float* __restrict__ part) {
  __shared__ float sm_m[kWarps], sm_l[kWarps];
  __shared__ float sm_acc[kWarps][32 * kMaxT];
  const int sh = blockIdx.y, sp = blockIdx.x, splits = gridDim.x;
  const int s = sh / heads, h = sh % heads;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  int n = __ldg(ctx + s);
  if (n > max_blocks * block_size) n = max_blocks * block_size;
  const int t0 = sp * chunk;
  const int t1 = min(n, t0 + chunk);  // t1 <= t0: empty chunk
  const int* bt = block_table + (size_t)s * max_blocks;
  float qr[kMaxT], acc[kMaxT];
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    qr[t] = c < d ? __ldg(q + (size_t)sh * d + c) : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  int j = t0 + warp;
  for (; j + kWarps < t1; j += 2 * kWarps) {
    const size_t ra = paged_row(bt, j, block_size, heads, h, d);
    const size_t rb = paged_row(bt, j + kWarps, block_size, heads, h, d);
    float pa = 0.0f, pb = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) {
        pa += qr[t] * __ldcs(K_pool + ra + c);
        pb += qr[t] * __ldcs(K_pool + rb + c);
      }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      pa += __shfl_xor_sync(0xffffffffu, pa, off);
      pb += __shfl_xor_sync(0xffffffffu, pb, off);
    }
    const float sa = __fmul_rn(pa, scale), sb = __fmul_rn(pb, scale);
    const float mnew = fmaxf(m, fmaxf(sa, sb));
    const float corr = expf(m - mnew);  // 0 while m is -inf
    const float ea = expf(sa - mnew), eb = expf(sb - mnew);
    l = l * corr + ea + eb;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) acc[t] = acc[t] * corr + ea * __ldcs(V_pool + ra + c) + eb * __ldcs(V_pool + rb + c);
    }
    m = mnew;
  }
  if (j < t1) {
    const size_t ra = paged_row(bt, j, block_size, heads, h, d);
    float pa = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) pa += qr[t] * __ldcs(K_pool + ra + c);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) pa += __shfl_xor_sync(0xffffffffu, pa, off);
    const float sa = __fmul_rn(pa, scale);
    const float mnew = fmaxf(m, sa);
    const float corr = expf(m - mnew);
    const float ea = expf(sa - mnew);
    l = l * corr + ea;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) acc[t] = acc[t] * corr + ea * __ldcs(V_pool + ra + c);
    }
    m = mnew;
  }
  if (lane == 0) {
    sm_m[warp] = m;
    sm_l[warp] = l;
  }
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) sm_acc[warp][lane + 32 * t] = acc[t];
  __syncthreads();
  float M = -INFINITY;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) M = fmaxf(M, sm_m[w]);
  float f[kWarps];
  float total = 0.0f;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    f[w] = sm_m[w] == -INFINITY ? 0.0f : expf(sm_m[w] - M);
    total += f[w] * sm_l[w];
  }
  float* dst = part + ((size_t)sh * splits + sp) * (size_t)(d + 2);
  if (threadIdx.x == 0) {
    dst[0] = M;  // -inf marks an empty chunk
    dst[1] = total;
  }
  for (int c = threadIdx.x; c < d; c += blockDim.x) {
    float a = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) a += f[w] * sm_acc[w][c];
    dst[2 + c] = a;
  }
}

__global__ void paged_split_combine(int d, int splits, const float* __restrict__ part, float* __restrict__ out) {
  const int sh = blockIdx.x;
  const float* ph = part + (size_t)sh * splits * (size_t)(d + 2);
  float M = -INFINITY;
  for (int s = 0; s < splits; ++s) M = fmaxf(M, ph[(size_t)s * (d + 2)]);
  for (int c = threadIdx.x; c < d; c += blockDim.x) {
    if (M == -INFINITY) {  // empty context
      out[(size_t)sh * d + c] = 0.0f;
      continue;
    }
    float total = 0.0f, a = 0.0f;
    for (int s = 0; s < splits; ++s) {
      const float* ps = ph + (size_t)s * (d + 2);
      const float ms = ps[0];
      if (ms == -INFINITY) continue;
      const float f = expf(ms - M);
      total += f * ps[1];
      a += f * ps[2 + c];
    }
    out[(size_t)sh * d + c] = a / total;
  }
}

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 1;
  }
  return sms;
}

}  // namespace

extern "C" void paged_decode_attention_f32(int seqs, int heads, int d, int block_size, int max_blocks,
                                           int pool_blocks, const float* q, const float* K_pool,
                                           const float* V_pool, const int* block_table, const int* ctx, float* out,
                                           cudaStream_t stream) {
  (void)pool_blocks;
  if (seqs <= 0 || heads <= 0 || d <= 0 || block_size <= 0) return;
  const long long rows = (long long)seqs * heads;
  const long long cap_tokens = (long long)max_blocks * block_size;
  const float scale = 1.0f / sqrtf((float)d);
  long long want = (32LL * sm_count() + rows - 1) / rows;  // ~32 blocks per SM over the longest context
  const long long cap = (cap_tokens + 63) / 64;               // no chunk shorter than 64 tokens
  if (want > cap) want = cap;
  if (want < 1) want = 1;
  const int chunk = (int)((cap_tokens + want - 1) / want > 0 ? (cap_tokens + want - 1) / want : 1);
  const int splits = (int)((cap_tokens + chunk - 1) / chunk > 0 ? (cap_tokens + chunk - 1) / chunk : 1);
  float* part = nullptr;
  if (cudaMallocAsync(&part, (size_t)rows * splits * (size_t)(d + 2) * sizeof(float), stream) != cudaSuccess) return;
  dim3 grid((unsigned int)splits, (unsigned int)rows);
  paged_split_partial<<<grid, kWarps * 32, 0, stream>>>(heads, d, block_size, max_blocks, chunk, scale, q, K_pool,
                                                        V_pool, block_table, ctx, part);
  paged_split_combine<<<(unsigned int)rows, 128, 0, stream>>>(d, splits, part, out);
  cudaFreeAsync(part, stream);
}
