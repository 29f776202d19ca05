# strategy: fused_float2 — one fused grid-stride pass: each thread reads x[i], y[i] once and writes (radius, angle) as a single 64-bit float2 store, so the interleaved output is written with fully coalesced 8-byte stores
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void polar_f2_kernel(const float* __restrict__ x, const float* __restrict__ y,
                                float2* __restrict__ out, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float a = __ldg(x + i), b = __ldg(y + i);
    out[i] = make_float2(hypotf(a, b), atan2f(b, a));
  }
}

torch::Tensor polar_f2_forward(torch::Tensor x, torch::Tensor y) {
  TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && y.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(x.sizes() == y.sizes(), "x and y must have the same shape");
  auto xc = x.contiguous();
  auto yc = y.contiguous();
  std::vector<int64_t> shape(xc.sizes().begin(), xc.sizes().end());
  shape.push_back(2);
  auto out = torch::empty(shape, xc.options());
  const int64_t n = xc.numel();
  if (n == 0) return out;
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > (int64_t)sms * 20) blocks = (int64_t)sms * 20;
  // a fresh allocation is at least 256-byte aligned, so the float2 view of out is aligned
  polar_f2_kernel<<<(unsigned)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), yc.data_ptr<float>(), reinterpret_cast<float2*>(out.data_ptr<float>()), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor polar_f2_forward(torch::Tensor x, torch::Tensor y);"

_ext = load_inline(name="t2c_pw_polar_f2", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["polar_f2_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return _ext.polar_f2_forward(x, y)
