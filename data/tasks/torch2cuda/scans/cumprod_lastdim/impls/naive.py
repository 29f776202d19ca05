# strategy: naive (weak) — one thread per row with a sequential running product; the threads of a warp read addresses a whole row apart (uncoalesced)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void cumprod_naive_kernel(const float* x, float* y, int64_t rows, int64_t len) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * len;
  float* yr = y + r * len;
  float p = 1.0f;
  for (int64_t i = 0; i < len; ++i) { p *= xr[i]; yr[i] = p; }
}

torch::Tensor cumprod_naive(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  auto xc = x.contiguous();
  auto y = torch::empty_like(xc);
  if (xc.numel() == 0) return y;
  const int64_t len = xc.size(xc.dim() - 1);
  const int64_t rows = xc.numel() / len;
  const int threads = 128;
  cumprod_naive_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), y.data_ptr<float>(), rows, len);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor cumprod_naive(torch::Tensor x);"

_ext = load_inline(name="t2c_scans_cumprod_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cumprod_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.cumprod_naive(x)
