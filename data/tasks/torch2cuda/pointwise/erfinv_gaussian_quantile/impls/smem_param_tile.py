# strategy: smem_param_tile — 32x8 thread blocks over 32-column x 64-row tiles: the first thread row stages the tile's mu and sigma in shared memory once, then each warp sweeps one row of 32 consecutive columns (coalesced 128-byte segments), eight rows per pass
import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define TC 32
#define TR 64
#define TY 8

__global__ void quantile_tile_kernel(const float* __restrict__ u, const float* __restrict__ mu,
                                     const float* __restrict__ sigma, float* __restrict__ y,
                                     int64_t rows, int64_t cols, float clip, float sqrt2) {
  __shared__ float smu[TC];
  __shared__ float ssg[TC];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t c = (int64_t)blockIdx.x * TC + tx;
  if (ty == 0) {
    smu[tx] = c < cols ? mu[c] : 0.0f;
    ssg[tx] = c < cols ? sigma[c] : 0.0f;
  }
  __syncthreads();
  if (c >= cols) return;
  const float m = smu[tx], s = ssg[tx];
  const int64_t r0 = (int64_t)blockIdx.y * TR;
  for (int k = ty; k < TR; k += TY) {
    const int64_t r = r0 + k;
    if (r >= rows) break;
    const int64_t i = r * cols + c;
    const float t = fminf(fmaxf(2.0f * u[i] - 1.0f, -clip), clip);
    y[i] = m + s * (erfinvf(t) * sqrt2);
  }
}

torch::Tensor quantile_tile_forward(torch::Tensor u, torch::Tensor mu, torch::Tensor sigma, double clip, double sqrt2) {
  TORCH_CHECK(u.is_cuda() && mu.is_cuda() && sigma.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(u.scalar_type() == torch::kFloat32 && mu.scalar_type() == torch::kFloat32 &&
              sigma.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(u.dim() == 2, "u must be 2-D");
  auto uc = u.contiguous();
  auto mc = mu.contiguous();
  auto sc = sigma.contiguous();
  const int64_t rows = uc.size(0), cols = uc.size(1);
  TORCH_CHECK(mc.numel() == cols && sc.numel() == cols, "mu and sigma must have one entry per column");
  auto out = torch::empty_like(uc);
  if (rows == 0 || cols == 0) return out;
  dim3 block(TC, TY);
  dim3 grid((unsigned)((cols + TC - 1) / TC), (unsigned)((rows + TR - 1) / TR));
  TORCH_CHECK(grid.y <= 65535u, "too many rows for this launch shape");
  quantile_tile_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
      uc.data_ptr<float>(), mc.data_ptr<float>(), sc.data_ptr<float>(), out.data_ptr<float>(), rows, cols,
      (float)clip, (float)sqrt2);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor quantile_tile_forward(torch::Tensor u, torch::Tensor mu, torch::Tensor sigma, double clip, double sqrt2);"

_ext = load_inline(name="t2c_pw_erfinv_tile", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["quantile_tile_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.mu = nn.Parameter(torch.zeros(cols))
        self.sigma = nn.Parameter(torch.ones(cols))
        self.clip = 1.0 - 1e-6

    def forward(self, u):
        return _ext.quantile_tile_forward(u, self.mu, self.sigma, float(self.clip), math.sqrt(2.0))
