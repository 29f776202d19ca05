# strategy: vec4_in_two_stores — 128-bit float4 loads of x and y (four points per thread), the four (radius, angle) pairs written as two 128-bit float4 stores; a scalar kernel covers the last n % 4 points and misaligned inputs
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void polar_v4_kernel(const float4* __restrict__ x4, const float4* __restrict__ y4,
                                float4* __restrict__ o4, int64_t nvec) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nvec; i += stride) {
    const float4 a = x4[i], b = y4[i];
    o4[2 * i] = make_float4(hypotf(a.x, b.x), atan2f(b.x, a.x), hypotf(a.y, b.y), atan2f(b.y, a.y));
    o4[2 * i + 1] = make_float4(hypotf(a.z, b.z), atan2f(b.z, a.z), hypotf(a.w, b.w), atan2f(b.w, a.w));
  }
}

__global__ void polar_tail_kernel(const float* __restrict__ x, const float* __restrict__ y,
                                  float* __restrict__ o, int64_t begin, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = begin + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float a = x[i], b = y[i];
    o[2 * i] = hypotf(a, b);
    o[2 * i + 1] = atan2f(b, a);
  }
}

torch::Tensor polar_v4_forward(torch::Tensor x, torch::Tensor y) {
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
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int threads = 256;
  const float* xp = xc.data_ptr<float>();
  const float* yp = yc.data_ptr<float>();
  float* op = out.data_ptr<float>();
  const bool aligned = ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp) |
                         reinterpret_cast<uintptr_t>(op)) & 15) == 0;
  int64_t done = 0;
  if (aligned && n >= 4) {
    const int64_t nvec = n / 4;
    int64_t blocks = (nvec + threads - 1) / threads;
    if (blocks > (int64_t)sms * 16) blocks = (int64_t)sms * 16;
    polar_v4_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
        reinterpret_cast<const float4*>(xp), reinterpret_cast<const float4*>(yp), reinterpret_cast<float4*>(op), nvec);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    done = nvec * 4;
  }
  if (done < n) {
    int64_t blocks = (n - done + threads - 1) / threads;
    if (blocks > (int64_t)sms * 16) blocks = (int64_t)sms * 16;
    polar_tail_kernel<<<(unsigned)blocks, threads, 0, stream>>>(xp, yp, op, done, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  return out;
}
"""

cpp_src = "torch::Tensor polar_v4_forward(torch::Tensor x, torch::Tensor y);"

_ext = load_inline(name="t2c_pw_polar_v4", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["polar_v4_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return _ext.polar_v4_forward(x, y)
