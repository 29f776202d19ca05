# strategy: naive (weak) — one thread per output with a sequential (double) loop down the reduced dimension; too few threads when batch*inner is small
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per output (b, n): a sequential loop over d (reads are coalesced across n, but there is
// only one thread per output, so small B*N leaves the GPU idle)
__global__ void sum_dim1_naive_kernel(const float* x, float* y, int64_t B, int64_t D, int64_t N) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * N) return;
  const int64_t b = t / N, n = t % N;
  const float* xp = x + b * D * N + n;
  double acc = 0.0;
  for (int64_t d = 0; d < D; ++d) acc += xp[d * N];
  y[t] = (float)acc;
}
torch::Tensor sum_dim1_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() == 3, "x must be 3-D");
  auto xc = x.contiguous();
  const int64_t B = xc.size(0), D = xc.size(1), N = xc.size(2);
  auto out = torch::empty({B, N}, xc.options());
  if (B * N == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 256;
  sum_dim1_naive_kernel<<<(unsigned)((B * N + threads - 1) / threads), threads, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), B, D, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sum_dim1_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_sum_dim1_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sum_dim1_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.sum_dim1_naive_forward(x)
