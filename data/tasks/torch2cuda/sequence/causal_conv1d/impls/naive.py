# strategy: naive (weak) — one thread per (batch, channel) sequence walking time serially, every tap re-read from global memory; neighbouring threads are a whole sequence apart, so nothing coalesces
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void causal_conv_row_kernel(const float* x, const float* w, const float* bias, float* y,
                                       int64_t rows, int C, int L, int K) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int c = (int)(r % C);
  const float* xr = x + r * L;
  float* yr = y + r * L;
  for (int t = 0; t < L; ++t) {
    float acc = bias[c];
    for (int k = 0; k < K; ++k) {
      const int s = t - (K - 1) + k;
      if (s >= 0) acc = fmaf(w[c * K + k], xr[s], acc);
    }
    yr[t] = acc;
  }
}

torch::Tensor causal_conv1d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 3 && w.dim() == 2 && w.size(0) == x.size(1) && b.numel() == x.size(1), "shape mismatch");
  auto xc = x.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t B = xc.size(0), C = xc.size(1), L = xc.size(2);
  const int K = (int)wc.size(1);
  auto out = torch::empty_like(xc);
  const int64_t rows = B * C;
  if (rows == 0 || L == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  causal_conv_row_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), rows, (int)C, (int)L, K);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor causal_conv1d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

_ext = load_inline(name="t2c_causal_conv1d_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["causal_conv1d_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.kernel_size = kernel_size
        self.weight = nn.Parameter(torch.zeros(channels, kernel_size))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return _ext.causal_conv1d_naive_forward(x, self.weight, self.bias)
