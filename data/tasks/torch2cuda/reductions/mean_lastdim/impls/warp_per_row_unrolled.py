# strategy: warp_per_row_unrolled — one warp per row, no shared memory or block barriers: each lane issues 16 independent coalesced float4 loads per step (8 KiB per warp in flight) into 4 accumulators, then a shuffle reduction
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

constexpr int kWarps = 8;     // rows (warps) per block
constexpr int kUnroll = 16;   // loads in flight per lane

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <bool VEC>
__global__ void __launch_bounds__(kWarps * 32, 1) mean_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                 int64_t rows, int64_t dim) {
  const int64_t r = (int64_t)blockIdx.x * kWarps + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;   // whole warps leave together
  const float* xr = x + r * dim;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const int64_t n4 = dim >> 2;
    for (int64_t base = lane; base < n4; base += 32 * kUnroll) {
      float4 t[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const int64_t i = base + 32 * k;
        t[k] = i < n4 ? x4[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      }
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) acc[k & 3] += (t[k].x + t[k].y) + (t[k].z + t[k].w);
    }
  } else {
    for (int64_t base = lane; base < dim; base += 32 * kUnroll) {
      float t[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const int64_t i = base + 32 * k;
        t[k] = i < dim ? xr[i] : 0.0f;
      }
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) acc[k & 3] += t[k];
    }
  }
  const float s = warp_sum((acc[0] + acc[1]) + (acc[2] + acc[3]));
  if (lane == 0) y[r] = s / (float)dim;
}

torch::Tensor mean_lastdim_warp_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(dim > 0, "empty reduction");
  const int64_t rows = xc.numel() / dim;
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  TORCH_CHECK(rows <= 0x3fffffffLL, "too many rows");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  const unsigned grid = (unsigned)((rows + kWarps - 1) / kWarps);
  const bool vec = (dim % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
  if (vec) mean_warp_kernel<true><<<grid, kWarps * 32, 0, stream>>>(xp, out.data_ptr<float>(), rows, dim);
  else mean_warp_kernel<false><<<grid, kWarps * 32, 0, stream>>>(xp, out.data_ptr<float>(), rows, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor mean_lastdim_warp_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_mean_lastdim_warp_per_row_unrolled", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["mean_lastdim_warp_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.mean_lastdim_warp_forward(x)
