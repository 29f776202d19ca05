# strategy: naive (weak) — one thread per row walking it sequentially, keeping the running minimum and its index (ties and NaN take the later element, as torch); uncoalesced across the warp, 12 bytes written per element
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__global__ void cummin_naive_kernel(const float* x, float* vals, int64_t* idx, int64_t rows, int64_t len) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * len;
  float best = xr[0];
  int64_t bi = 0;
  for (int64_t i = 0; i < len; ++i) {
    const float v = xr[i];
    if (isnan(v) || (!isnan(best) && v <= best)) { best = v; bi = i; }
    vals[r * len + i] = best;
    idx[r * len + i] = bi;
  }
}

std::vector<torch::Tensor> cummin_naive(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "x must be 2D");
  auto xc = x.contiguous();
  const int64_t rows = xc.size(0), len = xc.size(1);
  auto vals = torch::empty_like(xc);
  auto idx = torch::empty({rows, len}, xc.options().dtype(torch::kInt64));
  if (xc.numel() == 0) return {vals, idx};
  const int threads = 128;
  cummin_naive_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), vals.data_ptr<float>(), idx.data_ptr<int64_t>(), rows, len);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {vals, idx};
}
"""

cpp_src = "std::vector<torch::Tensor> cummin_naive(torch::Tensor x);"

_ext = load_inline(name="t2c_scans_cummin_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cummin_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.cummin_naive(x)
