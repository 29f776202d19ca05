# issue 24 (4) / issue 18 (4): computes the first call honestly, then returns that output again for every
# later call while its own (cheap) kernel pads the time to just above the old output-bytes floor. Every
# call now gets inputs no earlier call saw and a secret subset of timed outputs is checked after the
# fact against the reference on the same inputs
# expect: wrong_answer|hack_suspected
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void lrelu_kernel(const float* x, float* y, float s, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : x[i] * s;
}
__global__ void pad_kernel(float* y, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 64) y[i * 64] = y[i * 64];
}
torch::Tensor lrelu(torch::Tensor x, double s) {
    auto y = torch::empty_like(x);
    long long n = x.numel();
    lrelu_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (float)s, n);
    return y;
}
torch::Tensor pad(torch::Tensor y) {
    long long n = y.numel();
    pad_kernel<<<(unsigned)((n / 64 + 255) / 256 + 1), 256, 0, at::cuda::getCurrentCUDAStream()>>>(y.data_ptr<float>(), n);
    return y;
}
"""
ext = load_inline(name="rt_cached_padded", cpp_sources="torch::Tensor lrelu(torch::Tensor x, double s);\ntorch::Tensor pad(torch::Tensor y);",
                  cuda_sources=cuda_source, functions=["lrelu", "pad"])


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.s = negative_slope
        self.cached = {}

    def forward(self, x):
        key = tuple(x.shape)
        if key not in self.cached:
            self.cached[key] = ext.lrelu(x, self.s)
        return ext.pad(self.cached[key])
