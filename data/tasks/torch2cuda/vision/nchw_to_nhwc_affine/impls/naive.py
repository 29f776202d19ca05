# strategy: naive (weak) — one thread per NHWC output element: stores are coalesced but each warp's loads are H*W floats apart (one sector per lane)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void to_nhwc_naive_kernel(const float* x, const float* s, const float* b, float* y, int64_t total, int C, int64_t HW) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= total) return;
  const int c = (int)(t % C);
  const int64_t pix = (t / C) % HW;
  const int64_t n = t / ((int64_t)C * HW);
  // multiply then add, each rounded (no contraction), as the reference does
  y[t] = __fadd_rn(__fmul_rn(x[(n * C + c) * HW + pix], s[c]), b[c]);
}

torch::Tensor to_nhwc_naive_forward(torch::Tensor x, torch::Tensor s, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && s.is_cuda() && b.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && s.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  auto xc = x.contiguous(); auto sc = s.contiguous(); auto bc = b.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
  TORCH_CHECK(sc.numel() == C && bc.numel() == C, "parameter size mismatch");
  auto out = torch::empty({N, H, W, C}, xc.options());
  const int64_t total = out.numel();
  if (total == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 256;
  to_nhwc_naive_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), sc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), total, (int)C, H * W);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor to_nhwc_naive_forward(torch::Tensor x, torch::Tensor s, torch::Tensor b);"

_ext = load_inline(name="t2c_nchw_to_nhwc_affine_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["to_nhwc_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return _ext.to_nhwc_naive_forward(x, self.scale, self.bias)
