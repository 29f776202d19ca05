# strategy: naive — one thread per output element, dot product straight from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void affine_relu_naive_kernel(const float* x, const float* w, const float* b, float* y,
                                         int batch, int in_f, int out_f) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (row < batch && col < out_f) {
        float acc = b[col];
        for (int k = 0; k < in_f; ++k) acc += x[(long long)row * in_f + k] * w[(long long)col * in_f + k];
        y[(long long)row * out_f + col] = acc > 0.f ? acc : 0.f;
    }
}

torch::Tensor affine_relu_naive(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    auto xc = x.contiguous(), wc = w.contiguous(), bc = b.contiguous();
    int batch = xc.size(0), in_f = xc.size(1), out_f = wc.size(0);
    auto y = torch::empty({batch, out_f}, xc.options());
    dim3 threads(128), blocks((out_f + 127) / 128, batch);
    if (batch > 0 && out_f > 0)
        affine_relu_naive_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), batch, in_f, out_f);
    return y;
}
"""

cpp_source = "torch::Tensor affine_relu_naive(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

affine_ext = load_inline(name="t2c_affine_relu_naive", cpp_sources=cpp_source, cuda_sources=cuda_source,
                         functions=["affine_relu_naive"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)  # holds the weights: same names as Model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return affine_ext.affine_relu_naive(x, self.fc.weight, self.fc.bias)
