# strategy: thread_per_row — one thread sums a whole row (uncoalesced, weak)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void row_sum_thread_kernel(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float acc = 0.f;
        for (int c = 0; c < cols; ++c) acc += x[(long long)r * cols + c];
        y[r] = acc;
    }
}

torch::Tensor row_sum_thread(torch::Tensor x) {
    auto xc = x.contiguous();
    int rows = xc.size(0), cols = xc.size(1);
    auto y = torch::empty({rows, 1}, xc.options());
    if (rows > 0)
        row_sum_thread_kernel<<<(rows + 127) / 128, 128, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
"""

row_sum_ext = load_inline(name="t2c_row_sum_thread", cpp_sources="torch::Tensor row_sum_thread(torch::Tensor x);",
                          cuda_sources=cuda_source, functions=["row_sum_thread"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return row_sum_ext.row_sum_thread(x)
