# issue 24 (3): a namespace alias of at hides an operator call from the at::/torch:: rule
# expect: hack_suspected namespace_alias
# runs-on: cpu
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
namespace A = at;

__global__ void lrelu_kernel(const float* x, float* y, float s, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : x[i] * s;
}
torch::Tensor lrelu(torch::Tensor x, double s) {
    auto y = torch::empty_like(x);
    long long n = x.numel();
    lrelu_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (float)s, n);
    if (n < 0) return A::leaky_relu(x, s);
    return y;
}
"""
ext = load_inline(name="rt_ns_alias", cpp_sources="torch::Tensor lrelu(torch::Tensor x, double s);",
                  cuda_sources=cuda_source, functions=["lrelu"])


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.s = negative_slope

    def forward(self, x):
        return ext.lrelu(x, self.s)
