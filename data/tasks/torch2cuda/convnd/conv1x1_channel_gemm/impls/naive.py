# strategy: naive (weak) — one thread per output element, looping over all input channels with a strided (H*W apart) global load per channel and no reuse of x or W across threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void pw_naive_kernel(const float* x, const float* w, const float* b, float* y,
                                int64_t N, int64_t CI, int64_t CO, int64_t HW) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * CO * HW) return;
  const int64_t p = idx % HW;
  const int64_t co = (idx / HW) % CO;
  const int64_t n = idx / (HW * CO);
  float acc = b[co];
  for (int64_t ci = 0; ci < CI; ++ci) acc += w[co * CI + ci] * x[(n * CI + ci) * HW + p];
  y[idx] = acc;
}

torch::Tensor pw_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
              b.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(x.dim() == 4 && w.dim() == 4 && w.size(2) == 1 && w.size(3) == 1, "x is NCHW, w is (C_out, C_in, 1, 1)");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  auto bc = b.contiguous();
  const int64_t N = xc.size(0), CI = xc.size(1), H = xc.size(2), W = xc.size(3);
  const int64_t CO = wc.size(0);
  TORCH_CHECK(wc.size(1) == CI && bc.numel() == CO, "weight/bias shape mismatch");
  auto y = torch::empty({N, CO, H, W}, xc.options());
  const int64_t total = N * CO * H * W;
  if (total == 0) return y;
  const int threads = 256;
  pw_naive_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), N, CI, CO, H * W);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor pw_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

_ext = load_inline(name="t2c_convnd_pw1x1_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["pw_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1)

    def forward(self, x):
        return _ext.pw_naive_forward(x, self.conv.weight, self.conv.bias)
