# strategy: naive (weak) — unfused: a bias-add kernel (64-bit modulo per element) writes a temporary, a second kernel applies GELU
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>
__device__ __forceinline__ float gelu_erf(float v) { return 0.5f * v * (1.0f + erff(v * 0.7071067811865476f)); }

// unfused: a bias-add kernel writes x + bias to a temporary, then a GELU kernel reads it back
__global__ void bias_add_kernel(const float* x, const float* b, float* t, int64_t n, int64_t dim) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) t[i] = x[i] + b[i % dim];
}
__global__ void gelu_kernel(const float* t, float* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gelu_erf(t[i]);
}
torch::Tensor bias_gelu_naive_forward(torch::Tensor x, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(bias.is_cuda(), "bias must be a CUDA tensor");
  TORCH_CHECK(bias.scalar_type() == torch::kFloat32, "bias must be float32");
  auto xc = x.contiguous(); auto bc = bias.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(bc.numel() == dim, "bias size mismatch");
  const int64_t n = xc.numel();
  auto out = torch::empty_like(xc);
  if (n == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  auto tmp = torch::empty_like(xc);
  const unsigned blocks = (unsigned)((n + 255) / 256);
  bias_add_kernel<<<blocks, 256, 0, stream>>>(xc.data_ptr<float>(), bc.data_ptr<float>(), tmp.data_ptr<float>(), n, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  gelu_kernel<<<blocks, 256, 0, stream>>>(tmp.data_ptr<float>(), out.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor bias_gelu_naive_forward(torch::Tensor x, torch::Tensor bias);"

_ext = load_inline(name="t2c_bias_gelu_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["bias_gelu_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return _ext.bias_gelu_naive_forward(x, self.bias)
