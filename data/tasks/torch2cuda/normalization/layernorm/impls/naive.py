# strategy: naive (weak) — one thread per row, three sequential passes over the row with double accumulators; uncoalesced across the warp
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row; three sequential passes with double accumulators
__global__ void ln_row_kernel(const float* x, const float* w, const float* b, float* y,
                              int64_t rows, int64_t dim, float eps) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  double s = 0.0;
  for (int64_t i = 0; i < dim; ++i) s += xr[i];
  const double mean = s / (double)dim;
  double v = 0.0;
  for (int64_t i = 0; i < dim; ++i) { double d = xr[i] - mean; v += d * d; }
  const float inv = (float)(1.0 / sqrt(v / (double)dim + (double)eps));
  const float m = (float)mean;
  for (int64_t i = 0; i < dim; ++i) yr[i] = (xr[i] - m) * inv * w[i] + b[i];
}
torch::Tensor layernorm_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  auto bc = b.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim && bc.numel() == dim, "affine size mismatch");
  const int64_t rows = dim == 0 ? 0 : xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  ln_row_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), rows, dim, (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor layernorm_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_layernorm_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["layernorm_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.ln = nn.LayerNorm(dim, eps=eps)

    def forward(self, x):
        return _ext.layernorm_naive_forward(x, self.ln.weight, self.ln.bias, float(self.ln.eps))
