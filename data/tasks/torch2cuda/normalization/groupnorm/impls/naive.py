# strategy: naive (weak) — one thread per (sample, group) running sequential mean, variance and normalise passes over the whole group
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per (sample, group): sequential mean, variance and normalise passes (double accumulators)
__global__ void gn_naive_kernel(const float* x, const float* w, const float* b, float* y,
                                int64_t NG, int64_t groups, int64_t cpg, int64_t HW, float eps) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= NG) return;
  const int64_t g = t % groups;
  const int64_t gsize = cpg * HW;
  const float* xg = x + t * gsize;
  float* yg = y + t * gsize;
  double s = 0.0;
  for (int64_t i = 0; i < gsize; ++i) s += xg[i];
  const double mean = s / (double)gsize;
  double v = 0.0;
  for (int64_t i = 0; i < gsize; ++i) { double d = xg[i] - mean; v += d * d; }
  const float inv = (float)(1.0 / sqrt(v / (double)gsize + (double)eps));
  const float m = (float)mean;
  for (int64_t i = 0; i < gsize; ++i) {
    const int64_t c = g * cpg + i / HW;
    yg[i] = (xg[i] - m) * inv * w[c] + b[c];
  }
}
torch::Tensor groupnorm_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t groups, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.dim() >= 2, "x must be (N, C, ...)");
  auto xc = x.contiguous();
  auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1);
  TORCH_CHECK(groups > 0 && C % groups == 0, "channels must divide into groups");
  const int64_t HW = C == 0 || N == 0 ? 0 : xc.numel() / (N * C);
  const int64_t cpg = C / groups;
  const int64_t gsize = cpg * HW;
  auto out = torch::empty_like(xc);
  if (xc.numel() == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t NG = N * groups;
  const int threads = 64;
  gn_naive_kernel<<<(unsigned)((NG + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), NG, groups, cpg, HW, (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor groupnorm_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t groups, double eps);"

_ext = load_inline(name="t2c_groupnorm_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["groupnorm_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, num_groups, channels, eps=1e-5):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels, eps=eps)

    def forward(self, x):
        return _ext.groupnorm_naive_forward(x, self.gn.weight, self.gn.bias, int(self.gn.num_groups), float(self.gn.eps))
