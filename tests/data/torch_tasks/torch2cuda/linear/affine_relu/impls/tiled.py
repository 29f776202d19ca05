# strategy: tiled — 16x16 shared-memory tiles of x and W, bias and ReLU fused into the store
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE 16

__global__ void affine_relu_tiled_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                         const float* __restrict__ b, float* __restrict__ y,
                                         int batch, int in_f, int out_f) {
    __shared__ float xs[TILE][TILE];
    __shared__ float ws[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;   // batch index
    int col = blockIdx.x * TILE + threadIdx.x;   // output feature
    float acc = 0.f;
    for (int k0 = 0; k0 < in_f; k0 += TILE) {
        int kx = k0 + threadIdx.x;
        xs[threadIdx.y][threadIdx.x] = (row < batch && kx < in_f) ? x[(long long)row * in_f + kx] : 0.f;
        int wrow = blockIdx.x * TILE + threadIdx.y;
        ws[threadIdx.y][threadIdx.x] = (wrow < out_f && kx < in_f) ? w[(long long)wrow * in_f + kx] : 0.f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; ++k) acc += xs[threadIdx.y][k] * ws[threadIdx.x][k];
        __syncthreads();
    }
    if (row < batch && col < out_f) {
        float v = acc + b[col];
        y[(long long)row * out_f + col] = v > 0.f ? v : 0.f;
    }
}

torch::Tensor affine_relu_tiled(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    auto xc = x.contiguous(), wc = w.contiguous(), bc = b.contiguous();
    int batch = xc.size(0), in_f = xc.size(1), out_f = wc.size(0);
    auto y = torch::empty({batch, out_f}, xc.options());
    dim3 threads(TILE, TILE), blocks((out_f + TILE - 1) / TILE, (batch + TILE - 1) / TILE);
    if (batch > 0 && out_f > 0)
        affine_relu_tiled_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), batch, in_f, out_f);
    return y;
}
"""

cpp_source = "torch::Tensor affine_relu_tiled(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

affine_tiled_ext = load_inline(name="t2c_affine_relu_tiled", cpp_sources=cpp_source, cuda_sources=cuda_source,
                               functions=["affine_relu_tiled"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return affine_tiled_ext.affine_relu_tiled(x, self.fc.weight, self.fc.bias)
