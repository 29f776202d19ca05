// strategy: split_k — flash-decoding: the KV cache of each head is cut into chunks processed by separate blocks (grid = chunks x heads, sized to fill the GPU), each block emits a partial (max, sum, weighted V) state to scratch, and a second kernel merges the chunk states per head in a fixed order
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarps = 4;
constexpr int kMaxT = 4;  // d <= 128

__global__ void __launch_bounds__(kWarps * 32)
decode_split_partial(int L, int d, int chunk, float scale, const float* __restrict__ q, const float* __restrict__ K,
                     const float* __restrict__ V, float* __restrict__ part) {
  __shared__ float sm_m[kWarps], sm_l[kWarps];
  __shared__ float sm_acc[kWarps][32 * kMaxT];
  const int h = blockIdx.y, sp = blockIdx.x, splits = gridDim.x;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int j0 = sp * chunk;
  const int j1 = min(L, j0 + chunk);
  const size_t base = (size_t)h * L * d;
  float qr[kMaxT], acc[kMaxT];
#pragma unroll
  for (int t = 0; t < kMaxT; ++t) {
    const int c = lane + 32 * t;
    qr[t] = c < d ? __ldg(q + (size_t)h * d + c) : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  int j = j0 + warp;
  // two keys per iteration: two independent loads + reductions in flight
  for (; j + kWarps < j1; j += 2 * kWarps) {
    const float* ka = K + base + (size_t)j * d;
    const float* kb = ka + (size_t)kWarps * d;
    float pa = 0.0f, pb = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) {
        pa += qr[t] * __ldcs(ka + c);
        pb += qr[t] * __ldcs(kb + c);
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
    const float* va = V + base + (size_t)j * d;
    const float* vb = va + (size_t)kWarps * d;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) acc[t] = acc[t] * corr + ea * __ldcs(va + c) + eb * __ldcs(vb + c);
    }
    m = mnew;
  }
  if (j < j1) {
    const float* ka = K + base + (size_t)j * d;
    float pa = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) pa += qr[t] * __ldcs(ka + c);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) pa += __shfl_xor_sync(0xffffffffu, pa, off);
    const float sa = __fmul_rn(pa, scale);
    const float mnew = fmaxf(m, sa);
    const float corr = expf(m - mnew);
    const float ea = expf(sa - mnew);
    l = l * corr + ea;
    const float* va = V + base + (size_t)j * d;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) acc[t] = acc[t] * corr + ea * __ldcs(va + c);
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
  float* dst = part + ((size_t)h * splits + sp) * (size_t)(d + 2);
  if (threadIdx.x == 0) {
    dst[0] = M;  // -inf for an empty chunk, then total = 0 and the weighted sums are 0
    dst[1] = total;
  }
  for (int c = threadIdx.x; c < d; c += blockDim.x) {
    float a = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) a += f[w] * sm_acc[w][c];
    dst[2 + c] = a;
  }
}

__global__ void decode_split_combine(int d, int splits, const float* __restrict__ part, float* __restrict__ out) {
  const int h = blockIdx.x;
  const float* ph = part + (size_t)h * splits * (size_t)(d + 2);
  float M = -INFINITY;
  for (int s = 0; s < splits; ++s) M = fmaxf(M, ph[(size_t)s * (d + 2)]);
  for (int c = threadIdx.x; c < d; c += blockDim.x) {
    float total = 0.0f, a = 0.0f;
    for (int s = 0; s < splits; ++s) {
      const float* ps = ph + (size_t)s * (d + 2);
      const float ms = ps[0];
      if (ms == -INFINITY) continue;
      const float f = expf(ms - M);
      total += f * ps[1];
      a += f * ps[2 + c];
    }
    out[(size_t)h * d + c] = a / total;
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

extern "C" void decode_attention_f32(int heads, int L, int d, const float* q, const float* K, const float* V,
                                     float* out, cudaStream_t stream) {
  if (heads <= 0 || L <= 0 || d <= 0) return;
  const float scale = 1.0f / sqrtf((float)d);
  // enough blocks for ~16 per SM, but no chunk shorter than 64 keys
  long long want = (16LL * sm_count() + heads - 1) / heads;
  long long cap = (L + 63) / 64;
  if (want > cap) want = cap;
  if (want < 1) want = 1;
  const int chunk = (int)((L + want - 1) / want);
  const int splits = (L + chunk - 1) / chunk;  // every chunk non-empty
  float* part = nullptr;
  if (cudaMallocAsync(&part, (size_t)heads * splits * (size_t)(d + 2) * sizeof(float), stream) != cudaSuccess) return;
  dim3 grid((unsigned int)splits, (unsigned int)heads);
  decode_split_partial<<<grid, kWarps * 32, 0, stream>>>(L, d, chunk, scale, q, K, V, part);
  decode_split_combine<<<heads, 128, 0, stream>>>(d, splits, part, out);
  cudaFreeAsync(part, stream);
}
