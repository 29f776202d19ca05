# strategy: column_strip — each thread owns one float4 (or scalar) column slot, keeps its bias in registers and walks a strip of rows four at a time (four independent loads in flight before any GELU)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

__device__ __forceinline__ float gelu_exact(float v) { return 0.5f * v * (1.0f + erff(v * 0.7071067811865476f)); }
__device__ __forceinline__ float4 gelu4(float4 v, float4 b) {
  return make_float4(gelu_exact(v.x + b.x), gelu_exact(v.y + b.y), gelu_exact(v.z + b.z), gelu_exact(v.w + b.w));
}

// grid.x tiles the columns (one slot per thread), grid.y splits the rows into strips walked with a
// stride of gridDim.y; the bias slot is read once per thread and kept in registers, and each step
// issues the loads of four rows before the first GELU so four memory requests are in flight
__global__ void __launch_bounds__(256) bgelu_strip4_kernel(const float4* __restrict__ x, const float4* __restrict__ bias,
                                                           float4* __restrict__ y, int64_t rows, int64_t cols4) {
  const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols4) return;
  const float4 bb = __ldg(bias + c);
  const int64_t step = gridDim.y;
  int64_t r = blockIdx.y;
  for (; r + 3 * step < rows; r += 4 * step) {
    const float4 v0 = __ldcs(x + r * cols4 + c);
    const float4 v1 = __ldcs(x + (r + step) * cols4 + c);
    const float4 v2 = __ldcs(x + (r + 2 * step) * cols4 + c);
    const float4 v3 = __ldcs(x + (r + 3 * step) * cols4 + c);
    __stcs(y + r * cols4 + c, gelu4(v0, bb));
    __stcs(y + (r + step) * cols4 + c, gelu4(v1, bb));
    __stcs(y + (r + 2 * step) * cols4 + c, gelu4(v2, bb));
    __stcs(y + (r + 3 * step) * cols4 + c, gelu4(v3, bb));
  }
  for (; r < rows; r += step) __stcs(y + r * cols4 + c, gelu4(__ldcs(x + r * cols4 + c), bb));
}
// the same walk one float at a time (row length not a multiple of 4, or unaligned storage)
__global__ void __launch_bounds__(256) bgelu_strip1_kernel(const float* __restrict__ x, const float* __restrict__ bias,
                                                           float* __restrict__ y, int64_t rows, int64_t cols) {
  const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  const float bb = __ldg(bias + c);
  const int64_t step = gridDim.y;
  int64_t r = blockIdx.y;
  for (; r + 3 * step < rows; r += 4 * step) {
    const float v0 = x[r * cols + c];
    const float v1 = x[(r + step) * cols + c];
    const float v2 = x[(r + 2 * step) * cols + c];
    const float v3 = x[(r + 3 * step) * cols + c];
    y[r * cols + c] = gelu_exact(v0 + bb);
    y[(r + step) * cols + c] = gelu_exact(v1 + bb);
    y[(r + 2 * step) * cols + c] = gelu_exact(v2 + bb);
    y[(r + 3 * step) * cols + c] = gelu_exact(v3 + bb);
  }
  for (; r < rows; r += step) y[r * cols + c] = gelu_exact(x[r * cols + c] + bb);
}
torch::Tensor bias_gelu_strip_forward(torch::Tensor x, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(bias.is_cuda(), "bias must be a CUDA tensor");
  TORCH_CHECK(bias.scalar_type() == torch::kFloat32, "bias must be float32");
  auto xc = x.contiguous(); auto bc = bias.contiguous();
  const int64_t dim = xc.dim() == 0 ? 1 : xc.size(-1);
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
  const int64_t gx = (cols + threads - 1) / threads;
  // about 4096 blocks in all (enough to cover every SM many times), each strip at least 4 rows deep
  // where the rows allow it
  int64_t gy = (4096 + gx - 1) / gx;
  const int64_t max_gy = (rows + 3) / 4;
  if (gy > max_gy) gy = max_gy;
  if (gy > 65535) gy = 65535;
  if (gy < 1) gy = 1;
  TORCH_CHECK(gx <= 2147483647LL, "row too long for this grid");
  dim3 grid((unsigned)gx, (unsigned)gy);
  if (vec)
    bgelu_strip4_kernel<<<grid, threads, 0, stream>>>(reinterpret_cast<const float4*>(xc.data_ptr<float>()),
        reinterpret_cast<const float4*>(bc.data_ptr<float>()), reinterpret_cast<float4*>(out.data_ptr<float>()), rows, cols);
  else
    bgelu_strip1_kernel<<<grid, threads, 0, stream>>>(xc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor bias_gelu_strip_forward(torch::Tensor x, torch::Tensor bias);"

_ext = load_inline(name="t2c_bias_gelu_colstrip", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["bias_gelu_strip_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return _ext.bias_gelu_strip_forward(x, self.bias)
