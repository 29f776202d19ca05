# strategy: naive (weak) — one thread per row: a max pass, a sum-of-exp pass and an output pass, all sequential and uncoalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row: max pass, sum-of-exp pass, output pass
__global__ void sm_row_kernel(const float* x, float* y, int64_t rows, int64_t dim) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float m = -INFINITY;
  for (int64_t i = 0; i < dim; ++i) m = fmaxf(m, xr[i]);
  // the sum in double: a float running sum over a 70001-wide row drifts past rtol 1e-4
  double s = 0.0;
  for (int64_t i = 0; i < dim; ++i) s += (double)expf(xr[i] - m);
  const float inv = (float)(1.0 / s);
  for (int64_t i = 0; i < dim; ++i) yr[i] = expf(xr[i] - m) * inv;
}
torch::Tensor softmax_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  const int64_t dim = xc.size(-1);
  const int64_t rows = dim == 0 ? 0 : xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  sm_row_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), out.data_ptr<float>(), rows, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor softmax_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_softmax_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["softmax_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.softmax_naive_forward(x)
