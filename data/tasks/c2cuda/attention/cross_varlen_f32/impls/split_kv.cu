// strategy: split_kv — the valid keys of each (batch, head) are cut into 128-key splits handled by separate blocks (grid = heads x query tiles x splits, so even one query fills the GPU when lq << lk); a block keeps its split's 8 x 128 scores in shared memory for an exact per-split softmax, writes (max, sum, weighted V) to scratch, and a combine kernel merges the splits of each query in a fixed order; splits past kv_len exit at once
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kSplit = 128;  // keys per split
constexpr int kRows = 8;     // queries per block, one warp each
constexpr int kThreads = kRows * 32;
constexpr int kCols = 4;     // d <= 128: columns per lane

// Dynamic shared memory: Qs[kRows][d] | KV[kSplit][d + 1] (the split's keys, then its values) | S[kRows][kSplit]
__global__ void __launch_bounds__(kThreads)
xsplit_partial(int heads, int lq, int lk, int d, int nsplit, float scale, const float* __restrict__ Q,
               const float* __restrict__ K, const float* __restrict__ V, const int* __restrict__ kv_len,
               float* __restrict__ part) {
  extern __shared__ float sh[];
  const int ld = d + 1;
  float* Qs = sh;
  float* KV = Qs + kRows * d;
  float* S = KV + kSplit * ld;
  const long long bh = blockIdx.x;
  const int i0 = blockIdx.y * kRows, sp = blockIdx.z;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int n = min(__ldg(kv_len + bh / heads), lk);
  const int k0 = sp * kSplit;
  const int kn = min(kSplit, n - k0);  // keys of this split; <= 0: nothing to do (the combine never reads it)
  if (kn <= 0) return;
  const float* Kb = K + ((size_t)bh * lk + k0) * d;
  const float* Vb = V + ((size_t)bh * lk + k0) * d;

  for (int e = threadIdx.x; e < kRows * d; e += kThreads) {
    const int r = e / d;
    Qs[e] = i0 + r < lq ? __ldg(Q + ((size_t)bh * lq + i0) * d + e) : 0.0f;
  }
  for (int e = threadIdx.x; e < kn * d; e += kThreads) {
    const int key = e / d;
    KV[key * ld + (e - key * d)] = __ldg(Kb + e);
  }
  __syncthreads();
  // every (query, key) pair of the split, thread by thread; the padded stride keeps the K reads conflict-free
  for (int pr = threadIdx.x; pr < kRows * kSplit; pr += kThreads) {
    const int r = pr / kSplit, key = pr - r * kSplit;
    if (key >= kn) continue;
    const float* qr = Qs + r * d;
    const float* kr = KV + key * ld;
    float dot = 0.0f;
    for (int c = 0; c < d; ++c) dot = fmaf(qr[c], kr[c], dot);
    S[pr] = __fmul_rn(dot, scale);  // rounded once: the max and the exponent see the same value
  }
  __syncthreads();  // scores done, the keys are no longer needed
  for (int e = threadIdx.x; e < kn * d; e += kThreads) {
    const int key = e / d;
    KV[key * ld + (e - key * d)] = __ldg(Vb + e);
  }
  // exact softmax of this split, the warp's own row
  float* srow = S + warp * kSplit;
  float mx = -INFINITY;
  for (int key = lane; key < kn; key += 32) mx = fmaxf(mx, srow[key]);
  for (int off = 16; off > 0; off >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
  float mass = 0.0f;
  for (int key = lane; key < kn; key += 32) {
    const float e = expf(srow[key] - mx);
    srow[key] = e;
    mass += e;
  }
  for (int off = 16; off > 0; off >>= 1) mass += __shfl_xor_sync(0xffffffffu, mass, off);
  __syncthreads();  // the values and every row's weights are in shared memory
  const int i = i0 + warp;
  if (i >= lq) return;
  float a[kCols] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int key = 0; key < kn; ++key) {
    const float wgt = srow[key];
    const float* vr = KV + key * ld;
#pragma unroll
    for (int t = 0; t < kCols; ++t)
      if (lane + 32 * t < d) a[t] = fmaf(wgt, vr[lane + 32 * t], a[t]);
  }
  float* dst = part + (((size_t)bh * lq + i) * nsplit + sp) * (size_t)(d + 2);
  if (lane == 0) {
    dst[0] = mx;
    dst[1] = mass;
  }
#pragma unroll
  for (int t = 0; t < kCols; ++t)
    if (lane + 32 * t < d) dst[2 + lane + 32 * t] = a[t];
}

// A warp per query row: rescale the live splits to their common maximum and normalise.
__global__ void xsplit_combine(long long rows, int heads, int lq, int lk, int d, int nsplit,
                               const int* __restrict__ kv_len, const float* __restrict__ part,
                               float* __restrict__ out) {
  const long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= rows) return;
  const int lane = threadIdx.x & 31;
  const int n = min(__ldg(kv_len + (row / lq) / heads), lk);
  const int live = n > 0 ? (n + kSplit - 1) / kSplit : 0;
  float* o = out + (size_t)row * d;
  if (live == 0) {
    for (int c = lane; c < d; c += 32) o[c] = 0.0f;
    return;
  }
  const float* pr = part + (size_t)row * nsplit * (size_t)(d + 2);
  float top = -INFINITY;
  for (int s = 0; s < live; ++s) top = fmaxf(top, pr[(size_t)s * (d + 2)]);
  float den = 0.0f;
  for (int s = 0; s < live; ++s) den += expf(pr[(size_t)s * (d + 2)] - top) * pr[(size_t)s * (d + 2) + 1];
  for (int c = lane; c < d; c += 32) {
    float num = 0.0f;
    for (int s = 0; s < live; ++s) {
      const float* ps = pr + (size_t)s * (d + 2);
      num += expf(ps[0] - top) * ps[2 + c];
    }
    o[c] = num / den;
  }
}

}  // namespace

extern "C" void cross_attention_varlen_f32(int batch, int heads, int lq, int lk, int d, const float* Q,
                                           const float* K, const float* V, const int* kv_len, float* out,
                                           cudaStream_t stream) {
  if (batch <= 0 || heads <= 0 || lq <= 0 || lk <= 0 || d <= 0) return;
  const int nsplit = (lk + kSplit - 1) / kSplit;
  const long long rows = (long long)batch * heads * lq;
  float* part = nullptr;
  if (cudaMallocAsync((void**)&part, (size_t)rows * nsplit * (size_t)(d + 2) * sizeof(float), stream) != cudaSuccess)
    return;
  const size_t smem = ((size_t)kRows * d + (size_t)kSplit * (d + 1) + (size_t)kRows * kSplit) * sizeof(float);
  cudaFuncSetAttribute(xsplit_partial, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  const float scale = 1.0f / sqrtf((float)d);
  dim3 grid((unsigned int)(batch * heads), (unsigned int)((lq + kRows - 1) / kRows), (unsigned int)nsplit);
  xsplit_partial<<<grid, kThreads, smem, stream>>>(heads, lq, lk, d, nsplit, scale, Q, K, V, kv_len, part);
  const int per_block = 8;
  xsplit_combine<<<(unsigned int)((rows + per_block - 1) / per_block), per_block * 32, 0, stream>>>(
      rows, heads, lq, lk, d, nsplit, kv_len, part, out);
  cudaFreeAsync(part, stream);
}
