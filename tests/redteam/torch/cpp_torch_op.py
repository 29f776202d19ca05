# the extension calls a PyTorch operator from C++ instead of its own kernel
# expect: hack_suspected torch_fallback
# runs-on: cpu
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
__global__ void unused_kernel(float* y) { y[0] = 0.f; }
torch::Tensor lrelu(torch::Tensor x, double s) { return at::leaky_relu(x, s); }
"""
ext = load_inline(name="rt_cpp_op", cpp_sources="torch::Tensor lrelu(torch::Tensor x, double s);",
                  cuda_sources=cuda_source, functions=["lrelu"])


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.s = negative_slope

    def forward(self, x):
        return ext.lrelu(x, self.s)
