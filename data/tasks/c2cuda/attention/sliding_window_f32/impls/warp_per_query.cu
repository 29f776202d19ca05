// strategy: warp_per_query — one warp per query row walking its window, lanes own interleaved columns of q and of the accumulator, coalesced K/V row reads, butterfly-shuffle dot products and a single-pass online softmax
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarps = 8;
constexpr int kMaxT = 4;  // d <= 128 = 4 columns per lane

__global__ void __launch_bounds__(kWarps * 32)
swa_wpq_kernel(int heads, int seq, int d, int w, float scale, const float* __restrict__ Q, const float* __restrict__ K,
                  const float* __restrict__ V, float* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * kWarps + (threadIdx.x >> 5);
  if (row >= (long long)heads * seq) return;  // whole warp leaves together
  const int h = (int)(row / seq);
  const int i = (int)(row % seq);
  const size_t base = (size_t)h * seq * d;
  float q[kMaxT], acc[kMaxT];
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    q[t] = c < d ? __ldg(Q + base + (size_t)i * d + c) : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int j = max(0, i - w + 1); j <= i; ++j) {
    const float* k = K + base + (size_t)j * d;
    float part = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) part += q[t] * __ldg(k + c);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) part += __shfl_xor_sync(0xffffffffu, part, off);
    const float s = __fmul_rn(part, scale);
    if (s > m) {  // warp-uniform: every lane holds the same s
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
  const float inv = 1.0f / l;
  float* o = out + base + (size_t)i * d;
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    if (c < d) o[c] = acc[t] * inv;
  }
}

}  // namespace

extern "C" void sliding_window_attention_f32(int heads, int seq, int d, int w, const float* Q, const float* K, const float* V,
                                     float* out, cudaStream_t stream) {
  if (heads <= 0 || seq <= 0 || d <= 0) return;
  if (w < 1) w = 1;
  const long long rows = (long long)heads * seq;
  const float scale = 1.0f / sqrtf((float)d);
  swa_wpq_kernel<<<(unsigned int)((rows + kWarps - 1) / kWarps), kWarps * 32, 0, stream>>>(heads, seq, d, w, scale, Q,
                                                                                              K, V, out);
}
