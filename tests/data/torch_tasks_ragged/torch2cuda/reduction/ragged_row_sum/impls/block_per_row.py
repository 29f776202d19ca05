# strategy: block_per_row — one block per row, strided coalesced loads, warp-shuffle then shared-memory tree
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void row_sum_block_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float partial[32];
    const float* row = x + (long long)blockIdx.x * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += row[c];
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) partial[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < (blockDim.x >> 5) ? partial[lane] : 0.f;
        for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
        if (lane == 0) y[blockIdx.x] = acc;
    }
}

torch::Tensor row_sum_block(torch::Tensor x) {
    auto xc = x.contiguous();
    int rows = xc.size(0), cols = xc.size(1);
    auto y = torch::empty({rows, 1}, xc.options());
    if (rows > 0)
        row_sum_block_kernel<<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(),
                                                                              y.data_ptr<float>(), cols);
    return y;
}
"""

row_sum_block_ext = load_inline(name="t2c_row_sum_block", cpp_sources="torch::Tensor row_sum_block(torch::Tensor x);",
                                cuda_sources=cuda_source, functions=["row_sum_block"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return row_sum_block_ext.row_sum_block(x)
