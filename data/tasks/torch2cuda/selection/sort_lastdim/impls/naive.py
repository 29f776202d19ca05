# strategy: naive (weak) — rank counting: one block per row, each element counts the elements that sort before it (value, then index) by rescanning the row in global memory, O(dim^2) per row
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// element i of a row goes to position #{j : x[j] < x[i] or (x[j] == x[i] and j < i)}: a permutation, so
// every output slot is written exactly once
__global__ void rank_sort_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t dim) {
  const float* xr = x + (int64_t)blockIdx.x * dim;
  float* yr = y + (int64_t)blockIdx.x * dim;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) {
    const float v = xr[i];
    int64_t rank = 0;
    for (int64_t j = 0; j < dim; ++j) {
      const float w = xr[j];
      rank += (w < v) || (w == v && j < i);
    }
    yr[rank] = v;
  }
}

torch::Tensor rank_sort_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  auto xc = x.contiguous();
  const int64_t dim = xc.size(-1);
  auto out = torch::empty_like(xc);
  if (xc.numel() == 0) return out;
  const int64_t rows = xc.numel() / dim;
  rank_sort_kernel<<<(unsigned)rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(), out.data_ptr<float>(), dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor rank_sort_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_sort_lastdim_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rank_sort_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.rank_sort_forward(x)
