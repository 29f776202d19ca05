# strategy: fused_vectorized — one kernel, rows on grid.y, float4 loads of x and bias, GELU applied in registers, float4 stores
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>
__device__ __forceinline__ float gelu_erf(float v) { return 0.5f * v * (1.0f + erff(v * 0.7071067811865476f)); }

// fused: rows on grid.y, columns streamed with float4 (bias read as float4 too) when the row length is a
// multiple of 4 and pointers are aligned; otherwise a scalar fused path
__global__ void bias_gelu_vec4_kernel(const float4* __restrict__ x, const float4* __restrict__ b, float4* __restrict__ y,
                                      int64_t rows, int64_t dim4) {
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < dim4; c += (int64_t)gridDim.x * blockDim.x) {
      const float4 v = x[r * dim4 + c], bb = __ldg(b + c);
      y[r * dim4 + c] = make_float4(gelu_erf(v.x + bb.x), gelu_erf(v.y + bb.y), gelu_erf(v.z + bb.z), gelu_erf(v.w + bb.w));
    }
  }
}
__global__ void bias_gelu_scalar_kernel(const float* __restrict__ x, const float* __restrict__ b, float* __restrict__ y,
                                        int64_t rows, int64_t dim) {
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y)
    for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < dim; c += (int64_t)gridDim.x * blockDim.x)
      y[r * dim + c] = gelu_erf(x[r * dim + c] + __ldg(b + c));
}
torch::Tensor bias_gelu_fused_forward(torch::Tensor x, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(bias.is_cuda(), "bias must be a CUDA tensor");
  TORCH_CHECK(bias.scalar_type() == torch::kFloat32, "bias must be float32");
  auto xc = x.contiguous(); auto bc = bias.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(bc.numel() == dim, "bias size mismatch");
  const int64_t n = xc.numel();
  auto out = torch::empty_like(xc);
  if (n == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t rows = n / dim;
  const bool vec = (dim % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(bc.data_ptr<float>()) |
         reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0);
  const int threads = 256;
  const int64_t cols = vec ? dim / 4 : dim;
  int64_t gx = (cols + threads - 1) / threads;
  if (gx > 64) gx = 64;
  int64_t gy = rows < 65535 ? rows : 65535;
  dim3 grid((unsigned)gx, (unsigned)gy);
  if (vec)
    bias_gelu_vec4_kernel<<<grid, threads, 0, stream>>>(reinterpret_cast<const float4*>(xc.data_ptr<float>()),
        reinterpret_cast<const float4*>(bc.data_ptr<float>()), reinterpret_cast<float4*>(out.data_ptr<float>()), rows, dim / 4);
  else
    bias_gelu_scalar_kernel<<<grid, threads, 0, stream>>>(xc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), rows, dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor bias_gelu_fused_forward(torch::Tensor x, torch::Tensor bias);"

_ext = load_inline(name="t2c_bias_gelu_fused", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["bias_gelu_fused_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return _ext.bias_gelu_fused_forward(x, self.bias)
