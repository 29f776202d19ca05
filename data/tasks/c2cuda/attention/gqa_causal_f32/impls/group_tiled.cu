// strategy: group_tiled — a block takes 16 (position, head) query rows of one kv group in position-major order, so every K/V tile it stages in shared memory (K transposed and padded, Q rows float4-broadcast) serves all heads of the group; lane-per-key scores, warp-level online softmax, causal tile skipping, heaviest blocks first
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr int kWarps = 4;
constexpr int kQPW = 4;                // queries per warp
constexpr int kBQ = kWarps * kQPW;     // queries per block
constexpr int kBK = 32;                // keys per tile (one per lane)
constexpr int kKtStride = kBK + 1;     // padded row of the transposed K tile
constexpr int kMaxT = 4;               // d <= 128: columns per lane in the PV product

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__global__ void __launch_bounds__(kWarps * 32)
gqa_group_kernel(int q_heads, int group, int seq, int d, int dq, float scale, const float* __restrict__ Q, const float* __restrict__ K,
                    const float* __restrict__ V, float* __restrict__ out) {
  extern __shared__ float4 smem4[];
  float* Qs = reinterpret_cast<float*>(smem4);  // kBQ x dq   (dq = d rounded up to 4, zero padded)
  float* Kt = Qs + kBQ * dq;                    // dq x kKtStride (transposed K tile)
  float* Vs = Kt + dq * kKtStride;              // kBK x d
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int qb = gridDim.x - 1 - blockIdx.x;  // longest rows first
  const int q0 = qb * kBQ;                    // first flat query row f = pos * group + head_in_group
  const int nf = seq * group;                 // query rows of this kv group
  const int g = blockIdx.y;
  const size_t base = (size_t)g * seq * d;    // K/V of the group
  (void)q_heads;

  for (int idx = threadIdx.x; idx < kBQ * dq; idx += blockDim.x) {
    const int r = idx / dq, c = idx - r * dq;
    const int f = q0 + r;
    float v = 0.0f;
    if (f < nf && c < d) {
      const int pos = f / group, h = g * group + (f - pos * group);
      v = __ldg(Q + ((size_t)h * seq + pos) * d + c);
    }
    Qs[idx] = v;
  }

  float m[kQPW], l[kQPW], acc[kQPW][kMaxT];
#pragma unroll
  for (int r = 0; r < kQPW; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) acc[r][t] = 0.0f;
  }

  const int kend = min(seq, (min(q0 + kBQ, nf) - 1) / group + 1);  // past the block's last position: all masked
  int qpos[kQPW];
#pragma unroll
  for (int r = 0; r < kQPW; ++r) {
    const int f = q0 + warp * kQPW + r;
    qpos[r] = f < nf ? f / group : -1;  // -1: padding row, every key masked
  }
  const float4* Qrow4 = reinterpret_cast<const float4*>(Qs + (warp * kQPW) * dq);
  const int dq4 = dq >> 2;
  for (int k0 = 0; k0 < kend; k0 += kBK) {
    __syncthreads();  // previous tile fully consumed; Qs visible
    for (int idx = threadIdx.x; idx < kBK * dq; idx += blockDim.x) {
      const int r = idx / dq, c = idx - r * dq;
      const int kj = k0 + r;
      Kt[c * kKtStride + r] = (kj < seq && c < d) ? __ldg(K + base + (size_t)kj * d + c) : 0.0f;
    }
    for (int idx = threadIdx.x; idx < kBK * d; idx += blockDim.x) {
      const int r = idx / d, c = idx - r * d;
      const int kj = k0 + r;
      Vs[idx] = kj < seq ? __ldg(V + base + (size_t)kj * d + c) : 0.0f;
    }
    __syncthreads();

    // scores: lane owns key k0 + lane, for the warp's kQPW queries
    float dot[kQPW];
#pragma unroll
    for (int r = 0; r < kQPW; ++r) dot[r] = 0.0f;
    for (int c4 = 0; c4 < dq4; ++c4) {
      const int c = c4 * 4;
      const float k0v = Kt[(c + 0) * kKtStride + lane];
      const float k1v = Kt[(c + 1) * kKtStride + lane];
      const float k2v = Kt[(c + 2) * kKtStride + lane];
      const float k3v = Kt[(c + 3) * kKtStride + lane];
#pragma unroll
      for (int r = 0; r < kQPW; ++r) {
        const float4 qv = Qrow4[r * dq4 + c4];
        dot[r] += qv.x * k0v + qv.y * k1v + qv.z * k2v + qv.w * k3v;
      }
    }
    const int j = k0 + lane;
    float p[kQPW];
#pragma unroll
    for (int r = 0; r < kQPW; ++r) {
      const bool valid = j <= qpos[r];
      const float s = valid ? __fmul_rn(dot[r], scale) : -INFINITY;
      const float mnew = fmaxf(m[r], warp_max(s));  // warp-uniform
      if (mnew == -INFINITY) {
        p[r] = 0.0f;
        continue;
      }
      const float corr = expf(m[r] - mnew);  // 0 on the first live tile
      p[r] = valid ? expf(s - mnew) : 0.0f;
      l[r] = l[r] * corr + warp_sum(p[r]);
#pragma unroll
      for (int t = 0; t < kMaxT; ++t) acc[r][t] *= corr;
      m[r] = mnew;
    }
    const int jn = min(kBK, kend - k0);
    for (int jj = 0; jj < jn; ++jj) {
      float pj[kQPW];
#pragma unroll
      for (int r = 0; r < kQPW; ++r) pj[r] = __shfl_sync(0xffffffffu, p[r], jj);
      const float* vr = Vs + jj * d;
#pragma unroll
      for (int t = 0; t < kMaxT; ++t) {
        const int c = lane + 32 * t;
        if (c < d) {
          const float vc = vr[c];
#pragma unroll
          for (int r = 0; r < kQPW; ++r) acc[r][t] += pj[r] * vc;
        }
      }
    }
  }

#pragma unroll
  for (int r = 0; r < kQPW; ++r) {
    const int f = q0 + warp * kQPW + r;
    if (f >= nf) continue;
    const int pos = f / group, h = g * group + (f - pos * group);
    const float inv = 1.0f / l[r];
    float* o = out + ((size_t)h * seq + pos) * d;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) o[c] = acc[r][t] * inv;
    }
  }
}

}  // namespace

extern "C" void gqa_causal_attention_f32(int q_heads, int kv_heads, int seq, int d, const float* Q, const float* K,
                                         const float* V, float* out, cudaStream_t stream) {
  if (q_heads <= 0 || kv_heads <= 0 || seq <= 0 || d <= 0) return;
  const int group = q_heads / kv_heads > 0 ? q_heads / kv_heads : 1;
  const int dq = (d + 3) & ~3;
  const size_t smem = (size_t)(kBQ * dq + dq * kKtStride + kBK * d) * sizeof(float);
  const float scale = 1.0f / sqrtf((float)d);
  const long long nf = (long long)seq * group;
  dim3 grid((unsigned int)((nf + kBQ - 1) / kBQ), (unsigned int)kv_heads);
  gqa_group_kernel<<<grid, kWarps * 32, smem, stream>>>(q_heads, group, seq, d, dq, scale, Q, K, V, out);
}
