# strategy: naive (weak) — one thread per element, recomputing the channel index (64-bit div/mod) and 1/sqrt(var + eps) for every element
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per element; the channel and its scale are recomputed for every element
__global__ void bn_naive_kernel(const float* x, const float* rm, const float* rv, const float* w, const float* b,
                                float* y, int64_t total, int64_t C, int64_t HW, float eps) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int64_t c = (i / HW) % C;
  y[i] = (x[i] - rm[c]) / sqrtf(rv[c] + eps) * w[c] + b[c];
}
torch::Tensor batchnorm_naive_forward(torch::Tensor x, torch::Tensor rm, torch::Tensor rv, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(rm.is_cuda(), "rm must be a CUDA tensor");
  TORCH_CHECK(rm.scalar_type() == torch::kFloat32, "rm must be float32");
  TORCH_CHECK(rv.is_cuda(), "rv must be a CUDA tensor");
  TORCH_CHECK(rv.scalar_type() == torch::kFloat32, "rv must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  auto xc = x.contiguous();
  auto rmc = rm.contiguous(); auto rvc = rv.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), HW = xc.size(2) * xc.size(3);
  auto out = torch::empty_like(xc);
  if (xc.numel() == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t total = xc.numel();
  const int threads = 256;
  bn_naive_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), rmc.data_ptr<float>(), rvc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
      out.data_ptr<float>(), total, C, HW, (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor batchnorm_naive_forward(torch::Tensor x, torch::Tensor rm, torch::Tensor rv, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_batchnorm_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["batchnorm_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, eps=1e-5):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, eps=eps)

    def forward(self, x):
        return _ext.batchnorm_naive_forward(x, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias, float(self.bn.eps))
