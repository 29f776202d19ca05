# strategy: naive (weak) — one thread per element, 64-bit div/mod to recover the column on every element, a launch of exactly n threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void lerp_naive_kernel(const float* s, const float* e, const float* w, float* y,
                                  int64_t n, int64_t cols) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int64_t c = i % cols;
  const float a = s[i], b = e[i], t = w[c];
  const float d = b - a;
  y[i] = fabsf(t) < 0.5f ? a + t * d : b - d * (1.0f - t);
}

torch::Tensor lerp_naive_forward(torch::Tensor s, torch::Tensor e, torch::Tensor w) {
  TORCH_CHECK(s.is_cuda() && e.is_cuda() && w.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(s.scalar_type() == torch::kFloat32 && e.scalar_type() == torch::kFloat32 &&
              w.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(s.dim() == 2 && e.sizes() == s.sizes(), "start/end must be equal 2-D shapes");
  auto sc = s.contiguous();
  auto ec = e.contiguous();
  auto wc = w.contiguous();
  const int64_t cols = sc.size(1);
  TORCH_CHECK(wc.numel() == cols, "weight must have one entry per column");
  auto out = torch::empty_like(sc);
  const int64_t n = sc.numel();
  if (n == 0) return out;
  const int threads = 256;
  lerp_naive_kernel<<<(unsigned)((n + threads - 1) / threads), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      sc.data_ptr<float>(), ec.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(), n, cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor lerp_naive_forward(torch::Tensor s, torch::Tensor e, torch::Tensor w);"

_ext = load_inline(name="t2c_pw_lerp_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["lerp_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, start, end, weight):
        return _ext.lerp_naive_forward(start, end, weight)
