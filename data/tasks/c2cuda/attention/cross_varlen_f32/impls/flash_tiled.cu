// strategy: flash_tiled — block of 16 queries x 32-key tiles staged in shared memory (K transposed and padded, Q rows float4-broadcast), lane-per-key scores, warp-level online softmax; tiles stop at the batch's kv_len so padded keys are never loaded
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
xattn_flash_kernel(int heads, int lq, int lk, int d, int dq, float scale, const float* __restrict__ Q,
                   const float* __restrict__ K, const float* __restrict__ V, const int* __restrict__ kv_len,
                   float* __restrict__ out) {
  extern __shared__ float4 smem4[];
  float* Qs = reinterpret_cast<float*>(smem4);  // kBQ x dq   (dq = d rounded up to 4, zero padded)
  float* Kt = Qs + kBQ * dq;                    // dq x kKtStride (transposed K tile)
  float* Vs = Kt + dq * kKtStride;              // kBK x d
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int q0 = blockIdx.x * kBQ;
  const size_t bh = blockIdx.y;
  const int n = min(__ldg(kv_len + bh / heads), lk);  // valid keys of this batch element (may be 0)
  const size_t qbase = bh * lq * d;
  const size_t base = bh * lk * d;

  for (int idx = threadIdx.x; idx < kBQ * dq; idx += blockDim.x) {
    const int r = idx / dq, c = idx - r * dq;
    const int qi = q0 + r;
    Qs[idx] = (qi < lq && c < d) ? __ldg(Q + qbase + (size_t)qi * d + c) : 0.0f;
  }

  float m[kQPW], l[kQPW], acc[kQPW][kMaxT];
#pragma unroll
  for (int r = 0; r < kQPW; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) acc[r][t] = 0.0f;
  }

  const int kend = n;
  const float4* Qrow4 = reinterpret_cast<const float4*>(Qs + (warp * kQPW) * dq);
  const int dq4 = dq >> 2;
  for (int k0 = 0; k0 < kend; k0 += kBK) {
    __syncthreads();  // previous tile fully consumed; Qs visible
    for (int idx = threadIdx.x; idx < kBK * dq; idx += blockDim.x) {
      const int r = idx / dq, c = idx - r * dq;
      const int kj = k0 + r;
      Kt[c * kKtStride + r] = (kj < kend && c < d) ? __ldg(K + base + (size_t)kj * d + c) : 0.0f;
    }
    for (int idx = threadIdx.x; idx < kBK * d; idx += blockDim.x) {
      const int r = idx / d, c = idx - r * d;
      const int kj = k0 + r;
      Vs[idx] = kj < kend ? __ldg(V + base + (size_t)kj * d + c) : 0.0f;
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
      const int qi = q0 + warp * kQPW + r;
      const bool valid = (j < kend) && (qi < lq);
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
    const int qi = q0 + warp * kQPW + r;
    if (qi >= lq) continue;
    const float inv = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;  // kv_len = 0: zeros
    float* o = out + qbase + (size_t)qi * d;
#pragma unroll
    for (int t = 0; t < kMaxT; ++t) {
      const int c = lane + 32 * t;
      if (c < d) o[c] = acc[r][t] * inv;
    }
  }
}

}  // namespace

extern "C" void cross_attention_varlen_f32(int batch, int heads, int lq, int lk, int d, const float* Q,
                                           const float* K, const float* V, const int* kv_len, float* out,
                                           cudaStream_t stream) {
  if (batch <= 0 || heads <= 0 || lq <= 0 || lk <= 0 || d <= 0) return;
  const int dq = (d + 3) & ~3;
  const size_t smem = (size_t)(kBQ * dq + dq * kKtStride + kBK * d) * sizeof(float);
  const float scale = 1.0f / sqrtf((float)d);
  dim3 grid((unsigned int)((lq + kBQ - 1) / kBQ), (unsigned int)(batch * heads));
  xattn_flash_kernel<<<grid, kWarps * 32, smem, stream>>>(heads, lq, lk, d, dq, scale, Q, K, V, kv_len, out);
}
