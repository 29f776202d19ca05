# A kernel file that does not compile with either header: the full build's errors are the message.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void twice_kernel(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] +;  // a syntax error
}

torch::Tensor twice(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  twice_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
"""

ext = load_inline(name="t2c_build_broken", cpp_sources="torch::Tensor twice(torch::Tensor x);",
                  cuda_sources=cuda_src, functions=["twice"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.twice(x)
