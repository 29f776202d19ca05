// strategy: block_per_head — one 256-thread block per head: each warp streams an interleaved subset of the keys (lanes over columns, coalesced rows, shuffle dot products, online softmax), then the 8 partial softmax states are merged through shared memory
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarps = 8;
constexpr int kMaxT = 4;  // d <= 128

__global__ void __launch_bounds__(kWarps * 32)
decode_bph_kernel(int L, int d, float scale, const float* __restrict__ q, const float* __restrict__ K,
                  const float* __restrict__ V, float* __restrict__ out) {
  __shared__ float sm_m[kWarps], sm_l[kWarps];
  __shared__ float sm_acc[kWarps][32 * kMaxT];
  const int h = blockIdx.x;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const size_t base = (size_t)h * L * d;
  float qr[kMaxT], acc[kMaxT];
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    qr[t] = c < d ? __ldg(q + (size_t)h * d + c) : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int j = warp; j < L; j += kWarps) {
    const float* k = K + base + (size_t)j * d;
    float part = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) part += qr[t] * __ldg(k + c);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) part += __shfl_xor_sync(0xffffffffu, part, off);
    const float s = __fmul_rn(part, scale);
    if (s > m) {
      const float corr = expf(m - s);
      l *= corr;
#pragma unroll
      for (int t = 0; t < kMaxT; ++t) acc[t] *= corr;
      m = s;
    }
    const float p = expf(s - m);
    l += p;
    const float* v = V + base + (size_t)j * d;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) acc[t] += p * __ldg(v + c);
    }
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
    f[w] = sm_m[w] == -INFINITY ? 0.0f : expf(sm_m[w] - M);  // warps that saw no key contribute nothing
    total += f[w] * sm_l[w];
  }
  const float inv = 1.0f / total;
  for (int c = threadIdx.x; c < d; c += blockDim.x) {
    float a = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) a += f[w] * sm_acc[w][c];
    out[(size_t)h * d + c] = a * inv;
  }
}

}  // namespace

extern "C" void decode_attention_f32(int heads, int L, int d, const float* q, const float* K, const float* V,
                                     float* out, cudaStream_t stream) {
  if (heads <= 0 || L <= 0 || d <= 0) return;
  const float scale = 1.0f / sqrtf((float)d);
  decode_bph_kernel<<<heads, kWarps * 32, 0, stream>>>(L, d, scale, q, K, V, out);
}
