# strategy: naive (weak) — one thread per row scanning serially; neighbouring threads are a whole row apart, so every load and store is uncoalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void cummax_row_kernel(const float* x, float* y, int64_t rows, int64_t L) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * L;
  float* yr = y + r * L;
  float m = xr[0];
  yr[0] = m;
  for (int64_t i = 1; i < L; ++i) {
    m = fmaxf(m, xr[i]);
    yr[i] = m;
  }
}

torch::Tensor cummax_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() >= 1, "x must have a last dim");
  auto xc = x.contiguous();
  auto out = torch::empty_like(xc);
  const int64_t L = xc.size(-1);
  if (xc.numel() == 0 || L == 0) return out;
  const int64_t rows = xc.numel() / L;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  cummax_row_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), out.data_ptr<float>(), rows, L);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor cummax_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_cummax_lastdim_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cummax_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.cummax_naive_forward(x)
