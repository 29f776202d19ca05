# strategy: warp_scan — one warp per row walking it in coalesced 32-element chunks: a shuffle-up inclusive max-scan inside the chunk, combined with the running carry that the last lane broadcasts
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int WARPS = 8;

__global__ void __launch_bounds__(WARPS * 32) cummax_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                 int64_t rows, int64_t L) {
  const int lane = threadIdx.x & 31;
  const int64_t r = (int64_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
  if (r >= rows) return;                    // whole warps leave together
  const float* xr = x + r * L;
  float* yr = y + r * L;
  float carry = -__int_as_float(0x7f800000);
  for (int64_t base = 0; base < L; base += 32) {
    const int64_t i = base + lane;
    float v = i < L ? __ldg(xr + i) : -__int_as_float(0x7f800000);
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const float u = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v = fmaxf(v, u);
    }
    v = fmaxf(v, carry);
    if (i < L) yr[i] = v;
    carry = __shfl_sync(0xffffffffu, v, 31);
  }
}

torch::Tensor cummax_warp_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() >= 1, "x must have a last dim");
  auto xc = x.contiguous();
  auto out = torch::empty_like(xc);
  const int64_t L = xc.size(-1);
  if (xc.numel() == 0 || L == 0) return out;
  const int64_t rows = xc.numel() / L;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  cummax_warp_kernel<<<(unsigned)((rows + WARPS - 1) / WARPS), WARPS * 32, 0, stream>>>(
      xc.data_ptr<float>(), out.data_ptr<float>(), rows, L);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor cummax_warp_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_cummax_lastdim_warp_scan", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cummax_warp_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.cummax_warp_forward(x)
