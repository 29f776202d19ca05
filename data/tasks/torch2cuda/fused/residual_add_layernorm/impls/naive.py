# strategy: naive (weak) — unfused: an elementwise add kernel materialises x + residual, then one thread per row runs sequential LayerNorm passes
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// unfused: an elementwise kernel materialises s = x + residual, then one thread per row normalises it
__global__ void add_kernel(const float* x, const float* r, float* s, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = x[i] + r[i];
}
__global__ void ln_row_kernel(const float* s, const float* w, const float* b, float* y, int64_t rows, int64_t dim, float eps) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* sr = s + row * dim;
  float* yr = y + row * dim;
  double acc = 0.0;
  for (int64_t i = 0; i < dim; ++i) acc += sr[i];
  const double mean = acc / (double)dim;
  double var = 0.0;
  for (int64_t i = 0; i < dim; ++i) { double d = sr[i] - mean; var += d * d; }
  const float inv = (float)(1.0 / sqrt(var / (double)dim + (double)eps));
  const float m = (float)mean;
  for (int64_t i = 0; i < dim; ++i) yr[i] = (sr[i] - m) * inv * w[i] + b[i];
}
torch::Tensor residual_add_layernorm_naive_forward(torch::Tensor x, torch::Tensor r, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(r.is_cuda(), "r must be a CUDA tensor");
  TORCH_CHECK(r.scalar_type() == torch::kFloat32, "r must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.sizes() == r.sizes(), "x and residual must have one shape");
  auto xc = x.contiguous(); auto rc = r.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim && bc.numel() == dim, "affine size mismatch");
  const int64_t rows = dim == 0 ? 0 : xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t n = xc.numel();
  auto tmp = torch::empty_like(xc);
  add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(xc.data_ptr<float>(), rc.data_ptr<float>(), tmp.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  ln_row_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(tmp.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
                                                                   out.data_ptr<float>(), rows, dim, (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor residual_add_layernorm_naive_forward(torch::Tensor x, torch::Tensor r, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_ral_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["residual_add_layernorm_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.ln = nn.LayerNorm(dim, eps=eps)

    def forward(self, x, residual):
        return _ext.residual_add_layernorm_naive_forward(x, residual, self.ln.weight, self.ln.bias, float(self.ln.eps))
