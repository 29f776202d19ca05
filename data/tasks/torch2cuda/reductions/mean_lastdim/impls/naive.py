# strategy: naive (weak) — one thread per row with a sequential loop; neighbouring threads read addresses a whole row apart (uncoalesced)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row, sequential loop over the row
__global__ void red_row_kernel(const float* x, float* y, int64_t rows, int64_t dim) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  double acc = 0.0;
  for (int64_t i = 0; i < dim; ++i) { acc += xr[i]; }
  y[r] = (float)(acc / (double)dim);
}
torch::Tensor mean_lastdim_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(dim > 0, "empty reduction");
  const int64_t rows = xc.numel() / dim;
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  red_row_kernel<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), rows, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor mean_lastdim_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_mean_lastdim_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["mean_lastdim_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.mean_lastdim_naive_forward(x)
