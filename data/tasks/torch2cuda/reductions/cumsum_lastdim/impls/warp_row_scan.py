# strategy: warp_row_scan — one warp scans a whole row with no shared memory and no block barriers: coalesced float4 loads (4 per lane in flight), a serial scan inside each float4, a shuffle scan across the warp and a warp-uniform running carry
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

constexpr int kWarps = 8;   // rows (warps) per block
constexpr int kSub = 4;     // 32-lane sub-chunks loaded together per step

// inclusive scan across the warp (Hillis-Steele with shuffles)
__device__ __forceinline__ float warp_inclusive_scan(float v, int lane) {
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const float t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  return v;
}

// aligned rows: a step covers 4 sub-chunks of 128 values; lane l holds float4 l of each sub-chunk
__global__ void __launch_bounds__(kWarps * 32) cumsum_warp_vec_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                      int64_t rows, int64_t dim) {
  const int64_t r = (int64_t)blockIdx.x * kWarps + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;   // whole warps leave together
  const float4* x4 = reinterpret_cast<const float4*>(x + r * dim);
  float4* y4 = reinterpret_cast<float4*>(y + r * dim);
  const int64_t n4 = dim >> 2;
  float carry = 0.0f;   // sum of everything before the current sub-chunk (identical in every lane)
  for (int64_t base = 0; base < n4; base += 32 * kSub) {
    float4 t[kSub];
#pragma unroll
    for (int k = 0; k < kSub; ++k) {
      const int64_t i = base + 32 * k + lane;
      t[k] = i < n4 ? x4[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
#pragma unroll
    for (int k = 0; k < kSub; ++k) {
      t[k].y += t[k].x; t[k].z += t[k].y; t[k].w += t[k].z;   // inclusive scan of the lane's 4 values
      const float inc = warp_inclusive_scan(t[k].w, lane);
      float before = __shfl_up_sync(0xffffffffu, inc, 1);      // exclusive prefix of the lane totals
      if (lane == 0) before = 0.0f;
      const float pre = carry + before;
      const int64_t i = base + 32 * k + lane;
      if (i < n4) y4[i] = make_float4(pre + t[k].x, pre + t[k].y, pre + t[k].z, pre + t[k].w);
      carry += __shfl_sync(0xffffffffu, inc, 31);
    }
  }
}

// any row: a step covers 8 sub-chunks of 32 values, one per lane
__global__ void __launch_bounds__(kWarps * 32) cumsum_warp_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                         int64_t rows, int64_t dim) {
  constexpr int kSub1 = 8;
  const int64_t r = (int64_t)blockIdx.x * kWarps + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float carry = 0.0f;
  for (int64_t base = 0; base < dim; base += 32 * kSub1) {
    float t[kSub1];
#pragma unroll
    for (int k = 0; k < kSub1; ++k) {
      const int64_t i = base + 32 * k + lane;
      t[k] = i < dim ? xr[i] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < kSub1; ++k) {
      const float inc = warp_inclusive_scan(t[k], lane);
      const int64_t i = base + 32 * k + lane;
      if (i < dim) yr[i] = carry + inc;
      carry += __shfl_sync(0xffffffffu, inc, 31);
    }
  }
}

torch::Tensor cumsum_warp_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  auto out = torch::empty_like(xc);
  if (dim == 0 || xc.numel() == 0) return out;
  const int64_t rows = xc.numel() / dim;
  TORCH_CHECK(rows <= 0x3fffffffLL, "too many rows");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  const unsigned grid = (unsigned)((rows + kWarps - 1) / kWarps);
  const bool vec = (dim % 4 == 0) && (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
  if (vec) cumsum_warp_vec_kernel<<<grid, kWarps * 32, 0, stream>>>(xp, yp, rows, dim);
  else cumsum_warp_scalar_kernel<<<grid, kWarps * 32, 0, stream>>>(xp, yp, rows, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor cumsum_warp_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_cumsum_warp_row_scan", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cumsum_warp_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.cumsum_warp_forward(x)
