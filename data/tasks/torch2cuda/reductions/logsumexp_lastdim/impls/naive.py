# strategy: naive (weak) — one thread per row: sequential max pass then a sequential sum-of-exp pass; uncoalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row: a max pass and a sum-of-exp pass
__global__ void lse_row_kernel(const float* x, float* y, int64_t rows, int64_t dim) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float m = -INFINITY;
  for (int64_t i = 0; i < dim; ++i) m = fmaxf(m, xr[i]);
  double s = 0.0;
  for (int64_t i = 0; i < dim; ++i) s += expf(xr[i] - m);
  y[r] = m + (float)log(s);
}
torch::Tensor logsumexp_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(dim > 0, "empty rows");
  const int64_t rows = xc.numel() / dim;
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  lse_row_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), rows, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor logsumexp_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_logsumexp_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["logsumexp_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.logsumexp_naive_forward(x)
