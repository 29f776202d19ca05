# strategy: cluster_split_vec4 — float4 column groups (when inner is a multiple of 4), the reduced dim split over a Hopper thread-block cluster of 8 CTAs: each CTA sums its eighth of the rows with 8 loads in flight per thread, folds its 4 row-lanes in shared memory and pushes the column partials into the leader CTA's shared memory (distributed shared memory), which adds them in rank order: one kernel, no workspace, no atomics
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

constexpr int kCluster = 8;   // CTAs splitting the reduced dim
constexpr int kCols = 32;     // column groups (float4 or float) per CTA: one warp wide
constexpr int kLanes = 4;     // row lanes per CTA (blockDim = kCols * kLanes)
constexpr int kUnroll = 8;    // loads in flight per thread

__device__ __forceinline__ float vzero(float) { return 0.0f; }
__device__ __forceinline__ float4 vzero(float4) { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
__device__ __forceinline__ float vadd(float a, float b) { return a + b; }
__device__ __forceinline__ float4 vadd(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }

// 12 CTAs per SM (at most 42 registers): the perf shape's 1536 CTAs are resident in one wave.
// V = float4 (inner % 4 == 0, aligned) or float. NV = inner / (sizeof(V) / 4): columns in units of V.
// grid = (column blocks * kCluster, B); CTA rank r of a cluster sums rows [r * per, r * per + per) of its
// kCols column groups.
template <typename V>
__cluster_dims__(8, 1, 1) __global__ void __launch_bounds__(kCols * kLanes, 12) sum_dim1_cluster_kernel(
    const V* __restrict__ x, V* __restrict__ y, int64_t D, int64_t NV) {
  __shared__ V lane_part[kLanes][kCols];
  __shared__ V rank_part[kCluster][kCols];   // filled in the leader CTA (rank 0) only
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank();
  const int tx = threadIdx.x % kCols, ty = threadIdx.x / kCols;
  const int64_t col = (int64_t)(blockIdx.x / kCluster) * kCols + tx;
  const int64_t b = blockIdx.y;
  const int64_t per = (D + kCluster - 1) / kCluster;
  const int64_t d0 = rank * per;
  const int64_t d1 = d0 + per < D ? d0 + per : D;
  V acc0 = vzero(V()), acc1 = vzero(V());
  if (col < NV) {
    const V* xp = x + b * D * NV + col;
    for (int64_t d = d0 + ty; d < d1; d += kLanes * kUnroll) {
      V t[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const int64_t dd = d + (int64_t)k * kLanes;
        t[k] = dd < d1 ? xp[dd * NV] : vzero(V());
      }
#pragma unroll
      for (int k = 0; k < kUnroll; k += 2) { acc0 = vadd(acc0, t[k]); acc1 = vadd(acc1, t[k + 1]); }
    }
  }
  lane_part[ty][tx] = vadd(acc0, acc1);
  // CTA barrier for lane_part, and every CTA of the cluster is running before distributed writes
  cl.sync();
  if (ty == 0) {
    V s = lane_part[0][tx];
#pragma unroll
    for (int k = 1; k < kLanes; ++k) s = vadd(s, lane_part[k][tx]);
    *cl.map_shared_rank(&rank_part[rank][tx], 0) = s;
  }
  cl.sync();   // the leader has all partials; nobody touches remote shared memory after this
  if (rank == 0 && ty == 0 && col < NV) {
    V s = rank_part[0][tx];
#pragma unroll
    for (int k = 1; k < kCluster; ++k) s = vadd(s, rank_part[k][tx]);
    y[b * NV + col] = s;
  }
}

torch::Tensor sum_dim1_cluster_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() == 3, "x must be 3-D");
  auto xc = x.contiguous();
  const int64_t B = xc.size(0), D = xc.size(1), N = xc.size(2);
  auto out = torch::empty({B, N}, xc.options());
  if (B * N == 0) return out;
  TORCH_CHECK(B <= 65535, "batch too large for grid.y");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  const bool vec = (N % 4 == 0) && (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
  const int64_t NV = vec ? N / 4 : N;
  const int64_t col_blocks = (NV + kCols - 1) / kCols;
  TORCH_CHECK(col_blocks * kCluster <= 0x7fffffffLL, "inner dim too large");
  const dim3 grid((unsigned)(col_blocks * kCluster), (unsigned)B);   // grid.x is a multiple of the cluster size
  if (vec) {
    sum_dim1_cluster_kernel<float4><<<grid, kCols * kLanes, 0, stream>>>(
        reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), D, NV);
  } else {
    sum_dim1_cluster_kernel<float><<<grid, kCols * kLanes, 0, stream>>>(xp, yp, D, NV);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sum_dim1_cluster_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_sum_dim1_cluster_split_vec4", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sum_dim1_cluster_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.sum_dim1_cluster_forward(x)
