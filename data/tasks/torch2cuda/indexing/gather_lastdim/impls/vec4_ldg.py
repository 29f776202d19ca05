# strategy: vec4_ldg — each thread gathers 4 consecutive outputs of a row: the four int64 indices arrive in two 16-byte loads, the values through the read-only cache, one float4 store (scalar path for rows whose length is not a multiple of 4); grid-stride loop
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ float pick(const float* __restrict__ xr, int64_t c, int64_t N) {
  return (c >= 0 && c < N) ? __ldg(xr + c) : NAN;
}

// vector path: K % 4 == 0 and 16-byte aligned base pointers, so a group of 4 never straddles rows
__global__ void gather_vec4_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx, float* __restrict__ y,
                                   int64_t groups, int64_t N, int64_t K) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  const int64_t kg = K / 4;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += step) {
    const int64_t r = g / kg;
    const longlong2 a = __ldg(reinterpret_cast<const longlong2*>(idx) + 2 * g);
    const longlong2 b = __ldg(reinterpret_cast<const longlong2*>(idx) + 2 * g + 1);
    const float* xr = x + r * N;
    reinterpret_cast<float4*>(y)[g] = make_float4(pick(xr, a.x, N), pick(xr, a.y, N), pick(xr, b.x, N), pick(xr, b.y, N));
  }
}

__global__ void gather_scalar_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx, float* __restrict__ y,
                                     int64_t total, int64_t N, int64_t K) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t r = i / K;
    y[i] = pick(x + r * N, __ldg(idx + i), N);
  }
}

torch::Tensor gather_vec4_forward(torch::Tensor x, torch::Tensor index) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "x must be CUDA float32 (rows, cols)");
  TORCH_CHECK(index.is_cuda() && index.scalar_type() == torch::kInt64 && index.dim() == 2 && index.size(0) == x.size(0),
              "index must be CUDA int64 (rows, k)");
  auto xc = x.contiguous(); auto ic = index.contiguous();
  const int64_t R = xc.size(0), N = xc.size(1), K = ic.size(1);
  auto out = torch::empty({R, K}, xc.options());
  const int64_t total = R * K;
  if (total == 0) return out;
  const bool vec = (K % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(ic.data_ptr<int64_t>()) | reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t work = vec ? total / 4 : total;
  int64_t blocks = (work + 255) / 256;
  if (blocks > 65536) blocks = 65536;
  if (vec) {
    gather_vec4_kernel<<<(unsigned)blocks, 256, 0, stream>>>(xc.data_ptr<float>(), ic.data_ptr<int64_t>(), out.data_ptr<float>(),
                                                             work, N, K);
  } else {
    gather_scalar_kernel<<<(unsigned)blocks, 256, 0, stream>>>(xc.data_ptr<float>(), ic.data_ptr<int64_t>(), out.data_ptr<float>(),
                                                               total, N, K);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor gather_vec4_forward(torch::Tensor x, torch::Tensor index);"

_ext = load_inline(name="t2c_gather_lastdim_vec4", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["gather_vec4_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, index):
        return _ext.gather_vec4_forward(x, index)
