# strategy: grid_stride — one element per thread per iteration, coalesced scalar loads/stores, grid sized to a few waves of the SMs
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float act(float x, float p0) { return (x > 0.0f ? x : p0 * expm1f(x)); }

__global__ void elu_grid_kernel(const float* __restrict__ x_in, float* __restrict__ y, int64_t n, float p0) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = act(__ldg(x_in + i), p0);
}

torch::Tensor elu_grid_forward(torch::Tensor x, double p0_d) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  auto out = torch::empty_like(xc);
  const int64_t n = xc.numel();
  if (n == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  const int64_t cap = (int64_t)sms * 16;
  if (blocks > cap) blocks = cap;
  elu_grid_kernel<<<(unsigned)blocks, threads, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n, (float)p0_d);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor elu_grid_forward(torch::Tensor x, double p0_d);"

_ext = load_inline(name="t2c_elu_grid_stride", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["elu_grid_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, alpha=1.3):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return _ext.elu_grid_forward(x, float(self.alpha))
