// strategy: warp_per_query — one warp per query row, lanes own interleaved columns of q and of the accumulator, coalesced K/V row reads over the valid keys only, butterfly-shuffle dot products and a single-pass online softmax
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarps = 8;
constexpr int kMaxT = 4;  // d <= 128

__global__ void __launch_bounds__(kWarps * 32)
xattn_wpq_kernel(int batch, int heads, int lq, int lk, int d, float scale, const float* __restrict__ Q,
                 const float* __restrict__ K, const float* __restrict__ V, const int* __restrict__ kv_len,
                 float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * kWarps + (threadIdx.x >> 5);
  if (row >= (long long)batch * heads * lq) return;  // whole warp leaves together
  const long long bh = row / lq;
  const int b = (int)(bh / heads);
  int n = __ldg(kv_len + b);
  if (n > lk) n = lk;
  const size_t kbase = (size_t)bh * lk * d;
  float q[kMaxT], acc[kMaxT];
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    q[t] = c < d ? __ldg(Q + (size_t)row * d + c) : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float* k = K + kbase + (size_t)j * d;
    float part = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) part += q[t] * __ldg(k + c);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) part += __shfl_xor_sync(0xffffffffu, part, off);
    const float s = __fmul_rn(part, scale);
    if (s > m) {  // warp-uniform
      const float corr = expf(m - s);
      l *= corr;
#pragma unroll
      for (int t = 0; t < kMaxT; ++t) acc[t] *= corr;
      m = s;
    }
    const float p = expf(s - m);
    l += p;
    const float* v = V + kbase + (size_t)j * d;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) acc[t] += p * __ldg(v + c);
    }
  }
  const float inv = n > 0 ? 1.0f / l : 0.0f;  // no valid key: zeros
  float* o = out + (size_t)row * d;
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    if (c < d) o[c] = acc[t] * inv;
  }
}

}  // namespace

extern "C" void cross_attention_varlen_f32(int batch, int heads, int lq, int lk, int d, const float* Q,
                                           const float* K, const float* V, const int* kv_len, float* out,
                                           cudaStream_t stream) {
  if (batch <= 0 || heads <= 0 || lq <= 0 || lk <= 0 || d <= 0) return;
  const long long rows = (long long)batch * heads * lq;
  const float scale = 1.0f / sqrtf((float)d);
  xattn_wpq_kernel<<<(unsigned int)((rows + kWarps - 1) / kWarps), kWarps * 32, 0, stream>>>(batch, heads, lq, lk, d,
                                                                                              scale, Q, K, V, kv_len,
                                                                                              out);
}
