# strategy: flash_regblock — flash attention with 2-D register blocking: 128 threads own a 64-query x 32-key score tile (4x4 scores per thread, q tile transposed in shared memory for float4 reads), warp-shuffle online softmax in base 2, probabilities staged in shared memory for a 4 x D/8 per-thread P·V block
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// One block = 64 consecutive queries of one (batch, head); 128 threads as a 16 x 8 grid (ty, tx).
// Per key tile of 32: thread (ty, tx) computes scores of rows ty*4..ty*4+3 against keys tx, tx+8, tx+16,
// tx+24 (16 register accumulators, the q tile is stored d-major so the 4 rows are one float4), reduces the
// row max across its 8-lane group with shuffles, writes exp2 probabilities to shared memory, and after a
// barrier accumulates P·V for its 4 rows and the output columns tx + 8c (c < D/8). The log2(e)/sqrt(D)
// scale is folded into q so the softmax runs on exp2; the row denominators stay per-thread partials until
// the end (the rescale factor is uniform across a row's lanes).
constexpr int BR = 64, BC = 32, NT = 128;

__device__ __forceinline__ float4 load4(const float* p, bool vec) {
  if (vec) return *reinterpret_cast<const float4*>(p);
  return make_float4(p[0], p[1], p[2], p[3]);
}

template <int D, bool CAUSAL>
__global__ void __launch_bounds__(NT) sdpa_regblock_kernel(const float* __restrict__ q, const float* __restrict__ k,
                                                           const float* __restrict__ v, float* __restrict__ o, int S,
                                                           float qscale, bool vec) {
  static_assert(D % 8 == 0 && D <= 64, "head_dim must be a multiple of 8, at most 64");
  constexpr int NC = D / 8;  // output columns per thread
  __shared__ __align__(16) float Qs[D][BR + 4];
  __shared__ float Ks[BC][D + 1];
  __shared__ __align__(16) float Vs[BC][D];
  __shared__ __align__(16) float Ps[BC][BR + 4];
  const int tid = threadIdx.x, tx = tid & 7, ty = tid >> 3;
  // causal: heaviest query tiles first
  const int qt = CAUSAL ? (int)(gridDim.x - 1 - blockIdx.x) : (int)blockIdx.x;
  const int q0 = qt * BR;
  const int64_t base = (int64_t)blockIdx.y * S * D;
  const float* qb = q + base;
  const float* kb = k + base;
  const float* vb = v + base;

  for (int e = tid; e < BR * (D / 4); e += NT) {
    const int r = e / (D / 4), c4 = (e % (D / 4)) * 4;
    const int gi = q0 + r;
    float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
    if (gi < S) x = load4(qb + (int64_t)gi * D + c4, vec);
    Qs[c4 + 0][r] = x.x * qscale;
    Qs[c4 + 1][r] = x.y * qscale;
    Qs[c4 + 2][r] = x.z * qscale;
    Qs[c4 + 3][r] = x.w * qscale;
  }

  float acc[4][NC];
  float m[4], l[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.f;
#pragma unroll
    for (int c = 0; c < NC; ++c) acc[r][c] = 0.f;
  }
  const int kv_end = CAUSAL ? min(S, q0 + BR) : S;
  for (int j0 = 0; j0 < kv_end; j0 += BC) {
    for (int e = tid; e < BC * (D / 4); e += NT) {
      const int r = e / (D / 4), c4 = (e % (D / 4)) * 4;
      const int gj = j0 + r;
      float4 kx = make_float4(0.f, 0.f, 0.f, 0.f), vx = kx;
      if (gj < S) {
        kx = load4(kb + (int64_t)gj * D + c4, vec);
        vx = load4(vb + (int64_t)gj * D + c4, vec);
      }
      Ks[r][c4 + 0] = kx.x; Ks[r][c4 + 1] = kx.y; Ks[r][c4 + 2] = kx.z; Ks[r][c4 + 3] = kx.w;
      *reinterpret_cast<float4*>(&Vs[r][c4]) = vx;
    }
    __syncthreads();
    float s[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 4; ++c) s[r][c] = 0.f;
#pragma unroll 16
    for (int d = 0; d < D; ++d) {
      const float4 qa = *reinterpret_cast<const float4*>(&Qs[d][ty * 4]);
      float kk[4];
#pragma unroll
      for (int c = 0; c < 4; ++c) kk[c] = Ks[tx + 8 * c][d];
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        s[0][c] = fmaf(qa.x, kk[c], s[0][c]);
        s[1][c] = fmaf(qa.y, kk[c], s[1][c]);
        s[2][c] = fmaf(qa.z, kk[c], s[2][c]);
        s[3][c] = fmaf(qa.w, kk[c], s[3][c]);
      }
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int gi = q0 + ty * 4 + r;
      float mx = -INFINITY;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int gj = j0 + tx + 8 * c;
        const bool ok = gj < S && (!CAUSAL || gj <= gi);
        s[r][c] = ok ? s[r][c] : -INFINITY;
        mx = fmaxf(mx, s[r][c]);
      }
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 4));
      const float mnew = fmaxf(m[r], mx);
      const float muse = (mnew == -INFINITY) ? 0.f : mnew;  // a fully masked row so far: p = 0, no NaN
      const float corr = exp2f(m[r] - muse);
      float ps = 0.f;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        s[r][c] = exp2f(s[r][c] - muse);
        ps += s[r][c];
      }
      l[r] = fmaf(l[r], corr, ps);
      m[r] = mnew;
#pragma unroll
      for (int c = 0; c < NC; ++c) acc[r][c] *= corr;
    }
#pragma unroll
    for (int c = 0; c < 4; ++c)
      *reinterpret_cast<float4*>(&Ps[tx + 8 * c][ty * 4]) = make_float4(s[0][c], s[1][c], s[2][c], s[3][c]);
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < BC; ++j) {
      const float4 p = *reinterpret_cast<const float4*>(&Ps[j][ty * 4]);
#pragma unroll
      for (int c = 0; c < NC; ++c) {
        const float vv = Vs[j][tx + 8 * c];
        acc[0][c] = fmaf(p.x, vv, acc[0][c]);
        acc[1][c] = fmaf(p.y, vv, acc[1][c]);
        acc[2][c] = fmaf(p.z, vv, acc[2][c]);
        acc[3][c] = fmaf(p.w, vv, acc[3][c]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    float lt = l[r];
    lt += __shfl_xor_sync(0xffffffffu, lt, 1);
    lt += __shfl_xor_sync(0xffffffffu, lt, 2);
    lt += __shfl_xor_sync(0xffffffffu, lt, 4);
    const int gi = q0 + ty * 4 + r;
    if (gi < S) {
      const float inv = 1.0f / lt;
      float* orow = o + base + (int64_t)gi * D;
#pragma unroll
      for (int c = 0; c < NC; ++c) orow[tx + 8 * c] = acc[r][c] * inv;
    }
  }
}

torch::Tensor sdpa_regblock_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
  TORCH_CHECK(q.is_cuda(), "q must be a CUDA tensor");
  TORCH_CHECK(q.scalar_type() == torch::kFloat32, "q must be float32");
  TORCH_CHECK(k.is_cuda(), "k must be a CUDA tensor");
  TORCH_CHECK(k.scalar_type() == torch::kFloat32, "k must be float32");
  TORCH_CHECK(v.is_cuda(), "v must be a CUDA tensor");
  TORCH_CHECK(v.scalar_type() == torch::kFloat32, "v must be float32");
  TORCH_CHECK(q.dim() == 4 && k.sizes() == q.sizes() && v.sizes() == q.sizes(), "q, k, v must share one (B, H, S, D) shape");
  auto qc = q.contiguous(); auto kc = k.contiguous(); auto vc = v.contiguous();
  const int64_t BH = qc.size(0) * qc.size(1);
  const int S = (int)qc.size(2), D = (int)qc.size(3);
  auto out = torch::empty_like(qc);
  if (BH == 0 || S == 0) return out;
  TORCH_CHECK(BH <= 65535, "batch*heads too large for grid.y");
  const float qscale = 1.4426950408889634f / sqrtf((float)D);  // log2(e) / sqrt(D)
  const float* qp = qc.data_ptr<float>(); const float* kp = kc.data_ptr<float>(); const float* vp = vc.data_ptr<float>();
  float* op = out.data_ptr<float>();
  const bool vec = ((reinterpret_cast<uintptr_t>(qp) | reinterpret_cast<uintptr_t>(kp) | reinterpret_cast<uintptr_t>(vp)) & 15) == 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  dim3 grid((unsigned)((S + BR - 1) / BR), (unsigned)BH);
  switch (D) {
    case 8: sdpa_regblock_kernel<8, false><<<grid, NT, 0, stream>>>(qp, kp, vp, op, S, qscale, vec); break;
    case 16: sdpa_regblock_kernel<16, false><<<grid, NT, 0, stream>>>(qp, kp, vp, op, S, qscale, vec); break;
    case 32: sdpa_regblock_kernel<32, false><<<grid, NT, 0, stream>>>(qp, kp, vp, op, S, qscale, vec); break;
    case 64: sdpa_regblock_kernel<64, false><<<grid, NT, 0, stream>>>(qp, kp, vp, op, S, qscale, vec); break;
    default: TORCH_CHECK(false, "head_dim must be one of 8, 16, 32, 64");
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sdpa_regblock_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

_ext = load_inline(name="t2c_sdpa_flash_regblock", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sdpa_regblock_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return _ext.sdpa_regblock_forward(q, k, v)
