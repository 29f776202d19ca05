# strategy: naive (weak) — one thread per (batch, feature) column walking the whole length sequentially: coalesced across the warp but only batch * features threads, each with one dependent load per step
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void cumsum_dim1_naive_kernel(const float* x, float* y, int64_t B, int64_t L, int64_t F) {
  const int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= B * F) return;
  const int64_t b = col / F, f = col % F;
  const float* xc = x + b * L * F + f;
  float* yc = y + b * L * F + f;
  float acc = 0.0f;
  for (int64_t l = 0; l < L; ++l) { acc += xc[l * F]; yc[l * F] = acc; }
}

torch::Tensor cumsum_dim1_naive(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  TORCH_CHECK(x.dim() == 3, "x must be (batch, length, features)");
  auto xc = x.contiguous();
  auto y = torch::empty_like(xc);
  if (xc.numel() == 0) return y;
  const int64_t B = xc.size(0), L = xc.size(1), F = xc.size(2);
  const int threads = 128;
  cumsum_dim1_naive_kernel<<<(unsigned)((B * F + threads - 1) / threads), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), y.data_ptr<float>(), B, L, F);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor cumsum_dim1_naive(torch::Tensor x);"

_ext = load_inline(name="t2c_scans_cumsum_dim1_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cumsum_dim1_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.cumsum_dim1_naive(x)
