# strategy: naive (weak) — each thread applies the activation to its own contiguous chunk of 16 elements with scalar loads, so a warp's accesses are strided and uncoalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float act(float x) { return 1.0f / (1.0f + expf(-x)); }

__global__ void sigmoid_chunk_kernel(const float* x_in, float* y, int64_t n) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t begin = t * 16;
  int64_t end = begin + 16;
  if (end > n) end = n;
  for (int64_t i = begin; i < end; ++i) y[i] = act(x_in[i]);
}

torch::Tensor sigmoid_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  auto out = torch::empty_like(xc);
  const int64_t n = xc.numel();
  if (n == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  const int64_t chunks = (n + 15) / 16;
  const int64_t blocks = (chunks + threads - 1) / threads;
  sigmoid_chunk_kernel<<<(unsigned)blocks, threads, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sigmoid_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_sigmoid_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sigmoid_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.sigmoid_naive_forward(x)
