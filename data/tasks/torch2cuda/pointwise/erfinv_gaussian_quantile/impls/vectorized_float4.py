# strategy: vectorized_float4 — when cols % 4 == 0 and pointers are 16-byte aligned, a grid-stride loop over float4 quads loads u, mu and sigma as 128-bit vectors (mu/sigma through the read-only cache) and stores one float4; otherwise a scalar grid-stride kernel with the same math
import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ float quant1(float u, float m, float s, float clip, float sqrt2) {
  const float t = fminf(fmaxf(2.0f * u - 1.0f, -clip), clip);
  return m + s * (erfinvf(t) * sqrt2);
}

__global__ void quantile_v4_kernel(const float4* __restrict__ u4, const float4* __restrict__ m4,
                                   const float4* __restrict__ s4, float4* __restrict__ y4,
                                   int64_t nvec, int64_t qcols, float clip, float sqrt2) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; v < nvec; v += stride) {
    const int64_t q = v % qcols;
    const float4 a = u4[v];
    const float4 m = __ldg(m4 + q);
    const float4 s = __ldg(s4 + q);
    y4[v] = make_float4(quant1(a.x, m.x, s.x, clip, sqrt2), quant1(a.y, m.y, s.y, clip, sqrt2),
                        quant1(a.z, m.z, s.z, clip, sqrt2), quant1(a.w, m.w, s.w, clip, sqrt2));
  }
}

__global__ void quantile_s_kernel(const float* __restrict__ u, const float* __restrict__ m,
                                  const float* __restrict__ s, float* __restrict__ y,
                                  int64_t n, int64_t cols, float clip, float sqrt2) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int64_t c = i % cols;
    y[i] = quant1(u[i], __ldg(m + c), __ldg(s + c), clip, sqrt2);
  }
}

torch::Tensor quantile_v4_forward(torch::Tensor u, torch::Tensor mu, torch::Tensor sigma, double clip, double sqrt2) {
  TORCH_CHECK(u.is_cuda() && mu.is_cuda() && sigma.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(u.scalar_type() == torch::kFloat32 && mu.scalar_type() == torch::kFloat32 &&
              sigma.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(u.dim() == 2, "u must be 2-D");
  auto uc = u.contiguous();
  auto mc = mu.contiguous();
  auto sc = sigma.contiguous();
  const int64_t cols = uc.size(1);
  TORCH_CHECK(mc.numel() == cols && sc.numel() == cols, "mu and sigma must have one entry per column");
  auto out = torch::empty_like(uc);
  const int64_t n = uc.numel();
  if (n == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int threads = 256;
  const float* up = uc.data_ptr<float>();
  const float* mp = mc.data_ptr<float>();
  const float* sp = sc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  const bool aligned = ((reinterpret_cast<uintptr_t>(up) | reinterpret_cast<uintptr_t>(mp) |
                         reinterpret_cast<uintptr_t>(sp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0;
  const float fc = (float)clip, fs = (float)sqrt2;
  if (aligned && cols % 4 == 0) {
    const int64_t nvec = n / 4;
    int64_t blocks = (nvec + threads - 1) / threads;
    if (blocks > (int64_t)sms * 16) blocks = (int64_t)sms * 16;
    quantile_v4_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
        reinterpret_cast<const float4*>(up), reinterpret_cast<const float4*>(mp), reinterpret_cast<const float4*>(sp),
        reinterpret_cast<float4*>(yp), nvec, cols / 4, fc, fs);
  } else {
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks > (int64_t)sms * 16) blocks = (int64_t)sms * 16;
    quantile_s_kernel<<<(unsigned)blocks, threads, 0, stream>>>(up, mp, sp, yp, n, cols, fc, fs);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor quantile_v4_forward(torch::Tensor u, torch::Tensor mu, torch::Tensor sigma, double clip, double sqrt2);"

_ext = load_inline(name="t2c_pw_erfinv_vec4", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["quantile_v4_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.mu = nn.Parameter(torch.zeros(cols))
        self.sigma = nn.Parameter(torch.ones(cols))
        self.clip = 1.0 - 1e-6

    def forward(self, u):
        return _ext.quantile_v4_forward(u, self.mu, self.sigma, float(self.clip), math.sqrt(2.0))
