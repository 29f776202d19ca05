# strategy: naive (weak) — one thread per element, the column recovered by a 64-bit modulo, both logarithms evaluated for every element (no zero shortcut), exactly n threads launched
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void kl_naive_kernel(const float* p, const float* q, float* y, int64_t n, int64_t cols) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = p[i];
  const float b = q[i % cols];
  const float la = logf(a), lb = logf(b);
  const float t1 = a == 0.0f ? 0.0f : a * la;
  const float t2 = a == 0.0f ? 0.0f : a * lb;
  y[i] = t1 - t2;
}

torch::Tensor kl_naive_forward(torch::Tensor p, torch::Tensor q) {
  TORCH_CHECK(p.is_cuda() && q.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(p.scalar_type() == torch::kFloat32 && q.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(p.dim() == 2, "p must be 2-D");
  auto pc = p.contiguous();
  auto qc = q.contiguous();
  const int64_t cols = pc.size(1);
  TORCH_CHECK(qc.numel() == cols, "q must have one entry per column");
  auto out = torch::empty_like(pc);
  const int64_t n = pc.numel();
  if (n == 0) return out;
  const int threads = 256;
  kl_naive_kernel<<<(unsigned)((n + threads - 1) / threads), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      pc.data_ptr<float>(), qc.data_ptr<float>(), out.data_ptr<float>(), n, cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor kl_naive_forward(torch::Tensor p, torch::Tensor q);"

_ext = load_inline(name="t2c_pw_xlogy_kl_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["kl_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, p, q):
        return _ext.kl_naive_forward(p, q)
