// strategy: split_kv — split-KV with a combine kernel: a block owns one (position, 256-key split of its causal prefix, kv head) and its warps are the query heads of that group (8 at a time), so each 32-key K/V tile staged in shared memory serves every head of the group; each warp keeps a lane-per-key online softmax over its split only and writes (max, sum, weighted V) to a triangular scratch (position p has p/256 + 1 splits), and a second kernel merges a row's splits in a fixed order
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kSplit = 256;        // keys per split
constexpr int kTile = 32;          // keys per shared-memory tile (one per lane)
constexpr int kHeadsPerBlock = 8;  // query heads of a group per block, one warp each
constexpr int kThreads = kHeadsPerBlock * 32;
constexpr int kCols = 4;           // d <= 128: columns per lane

// Scratch states before position p of one head: sum over x < p of (x / kSplit + 1).
__host__ __device__ inline long long states_before(long long p) {
  const long long t = p / kSplit, r = p - t * kSplit;
  return p + kSplit * (t * (t - 1) / 2) + t * r;
}

// Dynamic shared memory: Qs[kHeadsPerBlock][d] | Kt[kTile][d + 1] | Vt[kTile][d]
__global__ void __launch_bounds__(kThreads)
gqa_split_partial(int seq, int d, int group, int slabs, float scale, const float* __restrict__ Q,
                  const float* __restrict__ K, const float* __restrict__ V, float* __restrict__ part) {
  extern __shared__ float sh[];
  const int kld = d + 1;
  float* Qs = sh;
  float* Kt = Qs + kHeadsPerBlock * d;
  float* Vt = Kt + kTile * kld;
  const int p = blockIdx.x, sp = blockIdx.y;
  const int g = blockIdx.z / slabs, slab = blockIdx.z - g * slabs;
  const int lo = sp * kSplit;
  if (lo > p) return;  // this split lies entirely in the masked future of position p
  const int hi = min(lo + kSplit, p + 1);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int hg = slab * kHeadsPerBlock + warp;  // head within the group
  const bool live = hg < group;
  const int h = g * group + hg;
  const float* kv_k = K + (size_t)g * seq * d;
  const float* kv_v = V + (size_t)g * seq * d;

  for (int c = lane; c < d; c += 32) Qs[warp * d + c] = live ? __ldg(Q + ((size_t)h * seq + p) * d + c) : 0.0f;
  float run_max = -INFINITY, run_sum = 0.0f;
  float o[kCols] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int t0 = lo; t0 < hi; t0 += kTile) {
    const int tn = min(kTile, hi - t0);
    __syncthreads();  // Qs written / the previous tile consumed by every warp
    for (int e = threadIdx.x; e < tn * d; e += kThreads) {
      const int key = e / d, c = e - key * d;
      const float kval = __ldg(kv_k + (size_t)t0 * d + e);
      Kt[key * kld + c] = kval;
      Vt[e] = __ldg(kv_v + (size_t)t0 * d + e);
    }
    __syncthreads();
    if (!live) continue;  // warp-uniform; no barrier inside
    float sc = -INFINITY;
    if (lane < tn) {
      const float* qr = Qs + warp * d;
      const float* kr = Kt + lane * kld;
      float dot = 0.0f;
      for (int c = 0; c < d; ++c) dot = fmaf(qr[c], kr[c], dot);
      sc = __fmul_rn(dot, scale);
    }
    float tile_max = sc;
    for (int off = 16; off > 0; off >>= 1) tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, off));
    const float next_max = fmaxf(run_max, tile_max);  // finite: tn >= 1
    const float shrink = expf(run_max - next_max);    // 0 on the first tile
    const float wgt = lane < tn ? expf(sc - next_max) : 0.0f;
    float tile_sum = wgt;
    for (int off = 16; off > 0; off >>= 1) tile_sum += __shfl_xor_sync(0xffffffffu, tile_sum, off);
    run_sum = fmaf(run_sum, shrink, tile_sum);
#pragma unroll
    for (int t = 0; t < kCols; ++t) o[t] *= shrink;
    for (int key = 0; key < tn; ++key) {
      const float wk = __shfl_sync(0xffffffffu, wgt, key);
      const float* vr = Vt + key * d;
#pragma unroll
      for (int t = 0; t < kCols; ++t)
        if (lane + 32 * t < d) o[t] = fmaf(wk, vr[lane + 32 * t], o[t]);
    }
    run_max = next_max;
  }
  if (!live) return;
  float* dst = part + ((size_t)h * states_before(seq) + states_before(p) + sp) * (size_t)(d + 2);
  if (lane == 0) {
    dst[0] = run_max;
    dst[1] = run_sum;
  }
#pragma unroll
  for (int t = 0; t < kCols; ++t)
    if (lane + 32 * t < d) dst[2 + lane + 32 * t] = o[t];
}

// One warp per (query head, position): merge the position's p / kSplit + 1 split states.
__global__ void gqa_split_merge(int q_heads, int seq, int d, const float* __restrict__ part, float* __restrict__ out) {
  const long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= (long long)q_heads * seq) return;
  const int lane = threadIdx.x & 31;
  const long long h = row / seq;
  const int p = (int)(row - h * seq);
  const int ns = p / kSplit + 1;
  const size_t stride = (size_t)(d + 2);
  const float* st = part + ((size_t)h * states_before(seq) + states_before(p)) * stride;
  float top = st[0];
  for (int s = 1; s < ns; ++s) top = fmaxf(top, st[s * stride]);
  float den = 0.0f;
  for (int s = 0; s < ns; ++s) den += expf(st[s * stride] - top) * st[s * stride + 1];
  const float inv = 1.0f / den;
  for (int c = lane; c < d; c += 32) {
    float num = 0.0f;
    for (int s = 0; s < ns; ++s) num += expf(st[s * stride] - top) * st[s * stride + 2 + c];
    out[(size_t)row * d + c] = num * inv;
  }
}

}  // namespace

extern "C" void gqa_causal_attention_f32(int q_heads, int kv_heads, int seq, int d, const float* Q, const float* K,
                                         const float* V, float* out, cudaStream_t stream) {
  if (q_heads <= 0 || kv_heads <= 0 || seq <= 0 || d <= 0) return;
  const int group = q_heads / kv_heads > 0 ? q_heads / kv_heads : 1;
  const int slabs = (group + kHeadsPerBlock - 1) / kHeadsPerBlock;
  const int nsplit = (seq + kSplit - 1) / kSplit;
  float* part = nullptr;
  const size_t states = (size_t)q_heads * (size_t)states_before(seq);
  if (cudaMallocAsync((void**)&part, states * (size_t)(d + 2) * sizeof(float), stream) != cudaSuccess) return;
  const size_t smem = ((size_t)kHeadsPerBlock * d + (size_t)kTile * (d + 1) + (size_t)kTile * d) * sizeof(float);
  const float scale = 1.0f / sqrtf((float)d);
  dim3 grid((unsigned int)seq, (unsigned int)nsplit, (unsigned int)(kv_heads * slabs));
  gqa_split_partial<<<grid, kThreads, smem, stream>>>(seq, d, group, slabs, scale, Q, K, V, part);
  const long long rows = (long long)q_heads * seq;
  const int per_block = 8;
  gqa_split_merge<<<(unsigned int)((rows + per_block - 1) / per_block), per_block * 32, 0, stream>>>(q_heads, seq, d,
                                                                                                    part, out);
  cudaFreeAsync(part, stream);
}
