# strategy: naive (weak) — one thread per row, sequential double sum of squares and a sequential divide pass; uncoalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row: a sequential sum of squares (double), then a sequential scaling pass
__global__ void l2n_row_kernel(const float* x, float* y, int64_t rows, int64_t dim) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  double q = 0.0;
  for (int64_t i = 0; i < dim; ++i) q += (double)xr[i] * xr[i];
  const float nrm = fmaxf((float)sqrt(q), 1e-12f);
  for (int64_t i = 0; i < dim; ++i) yr[i] = xr[i] / nrm;
}
torch::Tensor l2_normalize_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(dim > 0, "empty rows");
  const int64_t rows = xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  l2n_row_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), rows, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor l2_normalize_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_l2_normalize_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["l2_normalize_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.l2_normalize_naive_forward(x)
