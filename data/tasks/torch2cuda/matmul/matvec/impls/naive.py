# strategy: naive (weak) — one thread per row with a sequential double-precision dot product; uncoalesced row-strided loads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row: sequential dot product in double; a warp's loads are a whole row apart (uncoalesced)
__global__ void mv_row_kernel(const float* A, const float* x, float* y, int64_t M, int64_t K) {
  const int64_t m = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= M) return;
  const float* a = A + m * K;
  double acc = 0.0;
  for (int64_t k = 0; k < K; ++k) acc += (double)a[k] * (double)x[k];
  y[m] = (float)acc;
}
torch::Tensor matvec_naive_forward(torch::Tensor A, torch::Tensor x) {
  TORCH_CHECK(A.is_cuda(), "A must be a CUDA tensor");
  TORCH_CHECK(A.scalar_type() == torch::kFloat32, "A must be float32");
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(A.dim() == 2 && x.numel() == A.size(1), "shape mismatch");
  auto a = A.contiguous();
  auto v = x.contiguous();
  const int64_t M = a.size(0), K = a.size(1);
  auto out = torch::empty({M, 1}, a.options());
  if (M == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  mv_row_kernel<<<(unsigned)((M + threads - 1) / threads), threads, 0, stream>>>(a.data_ptr<float>(), v.data_ptr<float>(), out.data_ptr<float>(), M, K);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor matvec_naive_forward(torch::Tensor A, torch::Tensor x);"

_ext = load_inline(name="t2c_matvec_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["matvec_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return _ext.matvec_naive_forward(A, x)
