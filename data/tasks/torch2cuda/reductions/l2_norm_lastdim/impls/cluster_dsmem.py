# strategy: cluster_dsmem — each long row is split over a Hopper thread-block cluster of 8 CTAs; each CTA sums the squares of its contiguous slice with unrolled float4 loads and pushes its partial into the leader CTA's shared memory (distributed shared memory), which adds the 8 partials in rank order: one kernel, no workspace, no atomics; short rows use one warp per row
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cooperative_groups.h>
#include <cstdint>
#include <cfloat>

namespace cg = cooperative_groups;

constexpr int kCluster = 8;    // CTAs per row
constexpr int kCta = 256;      // threads per CTA
constexpr int kUnroll = 4;     // independent loads in flight per thread
constexpr int kWarpRows = 8;   // rows per block, short-row kernel

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <bool VEC>
__cluster_dims__(8, 1, 1) __global__ void __launch_bounds__(kCta) l2norm_cluster_kernel(const float* __restrict__ x,
                                                                                          float* __restrict__ y, int64_t dim) {
  __shared__ float red[kCta / 32];
  __shared__ float parts[kCluster];   // used in the leader CTA (rank 0) only
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank();
  const int64_t r = blockIdx.x / kCluster;
  const float* xr = x + r * dim;
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const int64_t n4 = dim >> 2;
    const int64_t per = (n4 + kCluster - 1) / kCluster;
    const int64_t lo = rank * per, hi = lo + per < n4 ? lo + per : n4;
    for (int64_t base = lo + threadIdx.x; base < hi; base += kCta * kUnroll) {
      float4 t[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const int64_t i = base + (int64_t)k * kCta;
        t[k] = i < hi ? x4[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      }
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        a0 = fmaf(t[k].x, t[k].x, a0); a1 = fmaf(t[k].y, t[k].y, a1);
        a2 = fmaf(t[k].z, t[k].z, a2); a3 = fmaf(t[k].w, t[k].w, a3);
      }
    }
  } else {
    const int64_t per = (dim + kCluster - 1) / kCluster;
    const int64_t lo = rank * per, hi = lo + per < dim ? lo + per : dim;
    for (int64_t base = lo + threadIdx.x; base < hi; base += kCta * kUnroll) {
      float t[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const int64_t i = base + (int64_t)k * kCta;
        t[k] = i < hi ? xr[i] : 0.0f;
      }
      a0 = fmaf(t[0], t[0], a0); a1 = fmaf(t[1], t[1], a1);
      a2 = fmaf(t[2], t[2], a2); a3 = fmaf(t[3], t[3], a3);
    }
  }
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  float q = warp_sum((a0 + a1) + (a2 + a3));
  if (lane == 0) red[wid] = q;
  // the cluster barrier doubles as this CTA's barrier for `red`, and guarantees every CTA of the cluster is
  // running before any of them writes the leader's shared memory
  cl.sync();
  if (wid == 0) {
    q = warp_sum(lane < kCta / 32 ? red[lane] : 0.0f);
    if (lane == 0) *cl.map_shared_rank(&parts[rank], 0) = q;
  }
  cl.sync();   // the partials have landed in the leader; no CTA touches another's shared memory after this
  if (rank == 0 && threadIdx.x == 0) {
    float t = 0.0f;
#pragma unroll
    for (int k = 0; k < kCluster; ++k) t += parts[k];
    y[r] = sqrtf(t);
  }
}

// short rows: one warp per row, unrolled strided loads
__global__ void __launch_bounds__(kWarpRows * 32) l2norm_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                      int64_t rows, int64_t dim) {
  const int64_t r = (int64_t)blockIdx.x * kWarpRows + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
  for (int64_t base = lane; base < dim; base += 32 * kUnroll) {
    float t[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const int64_t i = base + 32 * k;
      t[k] = i < dim ? xr[i] : 0.0f;
    }
    a0 = fmaf(t[0], t[0], a0); a1 = fmaf(t[1], t[1], a1);
    a2 = fmaf(t[2], t[2], a2); a3 = fmaf(t[3], t[3], a3);
  }
  const float q = warp_sum((a0 + a1) + (a2 + a3));
  if (lane == 0) y[r] = sqrtf(q);
}

torch::Tensor l2_norm_lastdim_cluster_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(dim > 0, "empty reduction");
  const int64_t rows = xc.numel() / dim;
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  if (dim <= 2048 || rows * kCluster > 0x7fffffffLL) {
    TORCH_CHECK(rows <= 0x3fffffffLL, "too many rows");
    l2norm_warp_kernel<<<(unsigned)((rows + kWarpRows - 1) / kWarpRows), kWarpRows * 32, 0, stream>>>(xp, yp, rows, dim);
  } else {
    const bool vec = (dim % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    const unsigned grid = (unsigned)(rows * kCluster);   // a multiple of the cluster size
    if (vec) l2norm_cluster_kernel<true><<<grid, kCta, 0, stream>>>(xp, yp, dim);
    else l2norm_cluster_kernel<false><<<grid, kCta, 0, stream>>>(xp, yp, dim);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor l2_norm_lastdim_cluster_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_l2_norm_lastdim_cluster_dsmem", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["l2_norm_lastdim_cluster_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.l2_norm_lastdim_cluster_forward(x)
