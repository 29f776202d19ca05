# strategy: tiled — 32x32 tiles through shared memory (padded against bank conflicts): reads and writes both coalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void transpose_tiled_kernel(const float* x, float* y, int rows, int cols) {
    __shared__ float tile[32][33];
    const long long plane = (long long)rows * cols;
    const float* xb = x + blockIdx.z * plane;
    float* yb = y + blockIdx.z * plane;
    int c = blockIdx.x * 32 + threadIdx.x;
    for (int k = threadIdx.y; k < 32; k += 8) {
        int r = blockIdx.y * 32 + k;
        if (r < rows && c < cols) tile[k][threadIdx.x] = xb[(long long)r * cols + c];
    }
    __syncthreads();
    int r = blockIdx.y * 32 + threadIdx.x;  // now along y's rows (x's columns)
    for (int k = threadIdx.y; k < 32; k += 8) {
        int cc = blockIdx.x * 32 + k;
        if (cc < cols && r < rows) yb[(long long)cc * rows + r] = tile[threadIdx.x][k];
    }
}

torch::Tensor transpose_tiled(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 3, "x: a 3-d float32 CUDA tensor");
    auto xc = x.contiguous();
    int b = (int)xc.size(0), rows = (int)xc.size(1), cols = (int)xc.size(2);
    auto y = torch::empty({b, cols, rows}, xc.options());
    if (xc.numel() > 0) {
        dim3 grid((cols + 31) / 32, (rows + 31) / 32, b), block(32, 8);
        transpose_tiled_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(),
                                                                                      y.data_ptr<float>(), rows, cols);
    }
    return y;
}
"""

ext = load_inline(name="t2c_fixture_transpose_tiled", cpp_sources="torch::Tensor transpose_tiled(torch::Tensor x);",
                  cuda_sources=cuda_source, functions=["transpose_tiled"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.transpose_tiled(x)
