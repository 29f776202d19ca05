# strategy: split_kv_flash_decoding — flash decoding (the keys of every (batch, head) are split into chunks handled by different blocks; enough splits to fill the GPU's resident block slots, chunks of at most 1024 keys), each block runs an online softmax over its 64 queries x its chunk (4x4 scores per thread from transposed q/k tiles, probabilities passed between lanes by warp shuffles, never through shared memory) and writes a normalised partial output with its log-sum-exp; a second kernel merges the splits of each row in a fixed order
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// Kernel 1, block (query tile, split, batch*head): 64 queries against the keys [split*chunk, ...) in
// tiles of 32, 128 threads as 16 row groups (ty) x 8 lanes (tx). Thread (ty, tx) scores rows 4ty..4ty+3
// against keys 4tx..4tx+3 of the tile from q and k tiles stored d-major (two float4 shared loads per 16
// FMAs; both tiles are transposed on the way in by a 4x4 register transpose, so the global loads and the
// shared stores stay dense). The row max is reduced over the 8 lanes of a row group; for P.V each lane
// takes the 32 probabilities of its rows from the lanes that computed them (__shfl_sync with width 8) and
// accumulates its D/8 output columns (float4 column groups 32 floats apart: conflict-free V reads). The
// log2(e)/sqrt(D) scale is folded into q (exp2 softmax). With one split the block writes the output
// directly; otherwise it writes acc/l and lse = m + log2(l) for its split.
// Kernel 2: out[row] = sum_s 2^(lse_s - M) o_s / sum_s 2^(lse_s - M), splits in order (deterministic).
constexpr int BR = 64, BC = 32, NT = 128, KV_MAX = 1024, MAX_SPLITS = 64;

__device__ __forceinline__ float4 load4(const float* p, bool vec) {
  if (vec) return *reinterpret_cast<const float4*>(p);
  return make_float4(p[0], p[1], p[2], p[3]);
}

// column cc (< D/8) of lane tx
template <int D>
__device__ __forceinline__ int out_col(int tx, int cc) {
  constexpr int CPT = D / 8;
  return CPT >= 4 ? (cc / 4) * 32 + tx * 4 + (cc % 4) : tx * CPT + cc;
}

template <int D>
__global__ void __launch_bounds__(NT) sdpa_split_partial_kernel(const float* __restrict__ q, const float* __restrict__ k,
                                                                const float* __restrict__ v, float* __restrict__ o,
                                                                float* __restrict__ part_o, float* __restrict__ part_lse,
                                                                int S, int chunk, float qscale, bool vec) {
  static_assert(D % 8 == 0 && D <= 64, "head_dim must be a multiple of 8, at most 64");
  constexpr int CPT = D / 8;  // output columns per lane
  constexpr int DQ = D / 4;   // float4 per row
  __shared__ __align__(16) float Qs[D][BR + 4];
  __shared__ __align__(16) float Kt[D][BC + 4];
  __shared__ __align__(16) float Vs[BC][D];
  const int tid = threadIdx.x, tx = tid & 7, ty = tid >> 3;
  const int q0 = blockIdx.x * BR;
  const int split = blockIdx.y, nsplit = gridDim.y;
  const int64_t bh = blockIdx.z, BH = gridDim.z;
  const int64_t base = bh * (int64_t)S * D;
  const float* qb = q + base;
  const float* kb = k + base;
  const float* vb = v + base;
  const int kv0 = split * chunk;
  const int kv1 = min(S, kv0 + chunk);

  // q tile, transposed: quad (rows 4rq.., cols 4dq..) read as 4 float4 rows, stored as 4 float4 columns
  for (int e = tid; e < (BR / 4) * DQ; e += NT) {
    const int rq = e % (BR / 4), dq = e / (BR / 4);
    float4 x[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int gi = q0 + rq * 4 + i;
      x[i] = gi < S ? load4(qb + (int64_t)gi * D + dq * 4, vec) : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    *reinterpret_cast<float4*>(&Qs[dq * 4 + 0][rq * 4]) = make_float4(x[0].x * qscale, x[1].x * qscale, x[2].x * qscale, x[3].x * qscale);
    *reinterpret_cast<float4*>(&Qs[dq * 4 + 1][rq * 4]) = make_float4(x[0].y * qscale, x[1].y * qscale, x[2].y * qscale, x[3].y * qscale);
    *reinterpret_cast<float4*>(&Qs[dq * 4 + 2][rq * 4]) = make_float4(x[0].z * qscale, x[1].z * qscale, x[2].z * qscale, x[3].z * qscale);
    *reinterpret_cast<float4*>(&Qs[dq * 4 + 3][rq * 4]) = make_float4(x[0].w * qscale, x[1].w * qscale, x[2].w * qscale, x[3].w * qscale);
  }

  float acc[4][CPT];
  float m[4], l[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.f;
#pragma unroll
    for (int c = 0; c < CPT; ++c) acc[r][c] = 0.f;
  }
#pragma unroll 1
  for (int j0 = kv0; j0 < kv1; j0 += BC) {
    __syncthreads();  // the previous tile's readers are done (and, first time, nothing to wait for)
#pragma unroll 1
    for (int e = tid; e < (BC / 4) * DQ; e += NT) {
      const int jq = e % (BC / 4), dq = e / (BC / 4);
      float4 x[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int gj = j0 + jq * 4 + i;
        x[i] = gj < kv1 ? load4(kb + (int64_t)gj * D + dq * 4, vec) : make_float4(0.f, 0.f, 0.f, 0.f);
      }
      *reinterpret_cast<float4*>(&Kt[dq * 4 + 0][jq * 4]) = make_float4(x[0].x, x[1].x, x[2].x, x[3].x);
      *reinterpret_cast<float4*>(&Kt[dq * 4 + 1][jq * 4]) = make_float4(x[0].y, x[1].y, x[2].y, x[3].y);
      *reinterpret_cast<float4*>(&Kt[dq * 4 + 2][jq * 4]) = make_float4(x[0].z, x[1].z, x[2].z, x[3].z);
      *reinterpret_cast<float4*>(&Kt[dq * 4 + 3][jq * 4]) = make_float4(x[0].w, x[1].w, x[2].w, x[3].w);
    }
#pragma unroll 1
    for (int e = tid; e < BC * DQ; e += NT) {
      const int j = e / DQ, c4 = (e % DQ) * 4;
      const int gj = j0 + j;
      *reinterpret_cast<float4*>(&Vs[j][c4]) = gj < kv1 ? load4(vb + (int64_t)gj * D + c4, vec) : make_float4(0.f, 0.f, 0.f, 0.f);
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
      const float4 kk = *reinterpret_cast<const float4*>(&Kt[d][tx * 4]);
      const float qv[4] = {qa.x, qa.y, qa.z, qa.w};
      const float kv[4] = {kk.x, kk.y, kk.z, kk.w};
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) s[r][c] = fmaf(qv[r], kv[c], s[r][c]);
    }
    // online softmax: keys past the end of the sequence are masked (chunks are whole tiles, so a tile
    // never crosses into the next split)
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      float mx = -INFINITY;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        if (j0 + tx * 4 + c >= kv1) s[r][c] = -INFINITY;
        mx = fmaxf(mx, s[r][c]);
      }
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 4));
      const float mnew = fmaxf(m[r], mx);
      const float muse = (mnew == -INFINITY) ? 0.f : mnew;
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
      for (int c = 0; c < CPT; ++c) acc[r][c] *= corr;
    }
    // P.V: key 4*src + c of the tile is in register s[r][c] of lane src of this row group
#pragma unroll
    for (int src = 0; src < BC / 4; ++src) {
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        float p[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) p[r] = __shfl_sync(0xffffffffu, s[r][c], src, 8);
        const float* vrow = &Vs[src * 4 + c][0];
        float vv[CPT];
        if constexpr (CPT >= 4) {
#pragma unroll
          for (int g = 0; g < CPT / 4; ++g) {
            const float4 t = *reinterpret_cast<const float4*>(vrow + g * 32 + tx * 4);
            vv[g * 4 + 0] = t.x; vv[g * 4 + 1] = t.y; vv[g * 4 + 2] = t.z; vv[g * 4 + 3] = t.w;
          }
        } else {
#pragma unroll
          for (int cc = 0; cc < CPT; ++cc) vv[cc] = vrow[tx * CPT + cc];
        }
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
          for (int cc = 0; cc < CPT; ++cc) acc[r][cc] = fmaf(p[r], vv[cc], acc[r][cc]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {  // the row denominators: every lane held the sum of its own 4 keys' terms
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 4);
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const int gi = q0 + ty * 4 + r;
    if (gi >= S) continue;
    const float lt = l[r];
    const float inv = 1.0f / lt;
    if (nsplit == 1) {
      float* orow = o + base + (int64_t)gi * D;
#pragma unroll
      for (int cc = 0; cc < CPT; ++cc) orow[out_col<D>(tx, cc)] = acc[r][cc] * inv;
    } else {
      const int64_t prow = ((int64_t)split * BH + bh) * S + gi;
      float* orow = part_o + prow * D;
#pragma unroll
      for (int cc = 0; cc < CPT; ++cc) orow[out_col<D>(tx, cc)] = acc[r][cc] * inv;
      if (tx == 0) part_lse[prow] = m[r] + log2f(lt);
    }
  }
}

// one thread per (row, 4 output columns): merge the splits' normalised partials by their log-sum-exp
__global__ void __launch_bounds__(256) sdpa_split_combine_kernel(const float* __restrict__ part_o,
                                                                 const float* __restrict__ part_lse,
                                                                 float* __restrict__ o, int64_t rows, int D,
                                                                 int nsplit) {
  const int dq = D / 4;
  const int64_t total = rows * dq;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (int64_t)gridDim.x * blockDim.x) {
    const int64_t row = t / dq;
    const int c4 = (int)(t % dq) * 4;
    float M = -INFINITY;
    for (int s = 0; s < nsplit; ++s) M = fmaxf(M, part_lse[s * rows + row]);
    float wsum = 0.f;
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int s = 0; s < nsplit; ++s) {
      const float w = exp2f(part_lse[s * rows + row] - M);
      const float4 p = *reinterpret_cast<const float4*>(part_o + (s * rows + row) * D + c4);
      wsum += w;
      a.x = fmaf(w, p.x, a.x); a.y = fmaf(w, p.y, a.y); a.z = fmaf(w, p.z, a.z); a.w = fmaf(w, p.w, a.w);
    }
    const float inv = 1.0f / wsum;
    *reinterpret_cast<float4*>(o + row * D + c4) = make_float4(a.x * inv, a.y * inv, a.z * inv, a.w * inv);
  }
}

template <int D>
static void launch_split(const float* qp, const float* kp, const float* vp, float* op, int64_t BH, int S, float qscale,
                         bool vec, const torch::Tensor& like, cudaStream_t stream) {
  const int q_tiles = (S + BR - 1) / BR;
  const int kv_tiles = (S + BC - 1) / BC;
  // splits: at least enough to fill every resident block slot of the GPU once, and chunks of at most
  // KV_MAX keys; never more than there are key tiles. Chunks are whole key tiles, none empty.
  int occ = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, sdpa_split_partial_kernel<D>, NT, 0) != cudaSuccess || occ < 1) {
    (void)cudaGetLastError();
    occ = 4;
  }
  const int64_t slots = (int64_t)occ * at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
  const int64_t blocks = (int64_t)q_tiles * BH;
  int64_t ns = (slots + blocks - 1) / blocks;
  const int64_t ns_len = (S + KV_MAX - 1) / KV_MAX;
  if (ns < ns_len) ns = ns_len;
  if (ns > kv_tiles) ns = kv_tiles;
  if (ns > MAX_SPLITS) ns = MAX_SPLITS;
  if (ns < 1) ns = 1;
  const int tiles_per_split = (int)((kv_tiles + ns - 1) / ns);
  const int nsplit = (kv_tiles + tiles_per_split - 1) / tiles_per_split;
  const int chunk = tiles_per_split * BC;
  dim3 grid((unsigned)q_tiles, (unsigned)nsplit, (unsigned)BH);
  if (nsplit == 1) {
    sdpa_split_partial_kernel<D><<<grid, NT, 0, stream>>>(qp, kp, vp, op, nullptr, nullptr, S, chunk, qscale, vec);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  const int64_t rows = BH * (int64_t)S;
  auto part_o = torch::empty({(int64_t)nsplit * rows * D}, like.options());
  auto part_lse = torch::empty({(int64_t)nsplit * rows}, like.options());
  sdpa_split_partial_kernel<D><<<grid, NT, 0, stream>>>(qp, kp, vp, op, part_o.data_ptr<float>(), part_lse.data_ptr<float>(),
                                                        S, chunk, qscale, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const int64_t work = rows * (D / 4);
  int64_t cblocks = (work + 255) / 256;
  if (cblocks > 65535) cblocks = 65535;
  sdpa_split_combine_kernel<<<(unsigned)cblocks, 256, 0, stream>>>(part_o.data_ptr<float>(), part_lse.data_ptr<float>(), op,
                                                                   rows, D, nsplit);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor sdpa_split_kv_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
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
  TORCH_CHECK(BH <= 65535, "batch*heads too large for grid.z");
  const float qscale = 1.4426950408889634f / sqrtf((float)D);  // log2(e) / sqrt(D)
  const float* qp = qc.data_ptr<float>(); const float* kp = kc.data_ptr<float>(); const float* vp = vc.data_ptr<float>();
  float* op = out.data_ptr<float>();
  const bool vec = ((reinterpret_cast<uintptr_t>(qp) | reinterpret_cast<uintptr_t>(kp) | reinterpret_cast<uintptr_t>(vp)) & 15) == 0;
  TORCH_CHECK((reinterpret_cast<uintptr_t>(op) & 15) == 0, "output must be 16-byte aligned");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  switch (D) {
    case 8: launch_split<8>(qp, kp, vp, op, BH, S, qscale, vec, qc, stream); break;
    case 16: launch_split<16>(qp, kp, vp, op, BH, S, qscale, vec, qc, stream); break;
    case 32: launch_split<32>(qp, kp, vp, op, BH, S, qscale, vec, qc, stream); break;
    case 64: launch_split<64>(qp, kp, vp, op, BH, S, qscale, vec, qc, stream); break;
    default: TORCH_CHECK(false, "head_dim must be one of 8, 16, 32, 64");
  }
  return out;
}
"""

cpp_src = "torch::Tensor sdpa_split_kv_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

_ext = load_inline(name="t2c_sdpa_split_kv_flash_decoding", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sdpa_split_kv_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return _ext.sdpa_split_kv_forward(q, k, v)
