# strategy: naive (weak) — one thread per row, sequential double-precision sum of squares and a sequential scaling pass; uncoalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row: a sequential sum of squares (double), then a sequential scaling pass
__global__ void rms_row_kernel(const float* x, const float* w, float* y, int64_t rows, int64_t dim, float eps) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  double q = 0.0;
  for (int64_t i = 0; i < dim; ++i) q += (double)xr[i] * xr[i];
  const float inv = (float)(1.0 / sqrt(q / (double)dim + (double)eps));
  for (int64_t i = 0; i < dim; ++i) yr[i] = xr[i] * inv * w[i];
}
torch::Tensor rmsnorm_naive_forward(torch::Tensor x, torch::Tensor w, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim, "weight size mismatch");
  const int64_t rows = dim == 0 ? 0 : xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  rms_row_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(), rows, dim, (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor rmsnorm_naive_forward(torch::Tensor x, torch::Tensor w, double eps);"

_ext = load_inline(name="t2c_rmsnorm_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rmsnorm_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return _ext.rmsnorm_naive_forward(x, self.weight, float(self.eps))
