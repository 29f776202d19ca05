# strategy: naive (weak) — one thread per element, the column recovered by a 64-bit modulo, mu and sigma re-read from global memory by every element, exactly n threads launched
import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void quantile_naive_kernel(const float* u, const float* mu, const float* sigma, float* y,
                                      int64_t n, int64_t cols, float clip, float sqrt2) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int64_t c = i % cols;
  float t = 2.0f * u[i] - 1.0f;
  if (t < -clip) t = -clip;
  if (t > clip) t = clip;
  const float z = erfinvf(t) * sqrt2;
  y[i] = mu[c] + sigma[c] * z;
}

torch::Tensor quantile_naive_forward(torch::Tensor u, torch::Tensor mu, torch::Tensor sigma, double clip, double sqrt2) {
  TORCH_CHECK(u.is_cuda() && mu.is_cuda() && sigma.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(u.scalar_type() == torch::kFloat32 && mu.scalar_type() == torch::kFloat32 &&
              sigma.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(u.dim() == 2, "u must be 2-D");
  auto uc = u.contiguous();
  auto mc = mu.contiguous();
  auto sc = sigma.contiguous();
  const int64_t cols = uc.size(1);
  TORCH_CHECK(mc.numel() == cols && sc.numel() == cols, "mu and sigma must have one entry per column");
  auto out = torch::empty_like(uc);
  const int64_t n = uc.numel();
  if (n == 0) return out;
  const int threads = 256;
  quantile_naive_kernel<<<(unsigned)((n + threads - 1) / threads), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      uc.data_ptr<float>(), mc.data_ptr<float>(), sc.data_ptr<float>(), out.data_ptr<float>(), n, cols,
      (float)clip, (float)sqrt2);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor quantile_naive_forward(torch::Tensor u, torch::Tensor mu, torch::Tensor sigma, double clip, double sqrt2);"

_ext = load_inline(name="t2c_pw_erfinv_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["quantile_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.mu = nn.Parameter(torch.zeros(cols))
        self.sigma = nn.Parameter(torch.ones(cols))
        self.clip = 1.0 - 1e-6

    def forward(self, u):
        return _ext.quantile_naive_forward(u, self.mu, self.sigma, float(self.clip), math.sqrt(2.0))
