# strategy: naive (weak) — one thread per output element: its index and the gathered value are scalar loads from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void gather_naive_kernel(const float* x, const int64_t* idx, float* y, int64_t total, int64_t N, int64_t K) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int64_t r = i / K;
  const int64_t c = idx[i];
  y[i] = (c >= 0 && c < N) ? x[r * N + c] : NAN;
}

torch::Tensor gather_naive_forward(torch::Tensor x, torch::Tensor index) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "x must be CUDA float32 (rows, cols)");
  TORCH_CHECK(index.is_cuda() && index.scalar_type() == torch::kInt64 && index.dim() == 2 && index.size(0) == x.size(0),
              "index must be CUDA int64 (rows, k)");
  auto xc = x.contiguous(); auto ic = index.contiguous();
  const int64_t R = xc.size(0), N = xc.size(1), K = ic.size(1);
  auto out = torch::empty({R, K}, xc.options());
  const int64_t total = R * K;
  if (total == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  gather_naive_kernel<<<(unsigned)((total + 255) / 256), 256, 0, stream>>>(xc.data_ptr<float>(), ic.data_ptr<int64_t>(),
                                                                           out.data_ptr<float>(), total, N, K);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor gather_naive_forward(torch::Tensor x, torch::Tensor index);"

_ext = load_inline(name="t2c_gather_lastdim_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["gather_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, index):
        return _ext.gather_naive_forward(x, index)
