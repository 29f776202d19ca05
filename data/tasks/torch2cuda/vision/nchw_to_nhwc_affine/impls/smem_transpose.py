# strategy: smem_transpose — classic 32x32 shared-memory tile transpose per (image, channel block, pixel block) with a padded row against bank conflicts; 32x8 threads, 4 elements each; loads coalesced along pixels, stores coalesced along channels
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int T = 32, RY = 8;

// grid: x = pixel blocks, y = channel blocks, z = images (grid-stride)
__global__ void to_nhwc_tile_kernel(const float* __restrict__ x, const float* __restrict__ s, const float* __restrict__ b,
                                    float* __restrict__ y, int N, int C, int64_t HW) {
  __shared__ float tile[T][T + 1];
  const int64_t p0 = (int64_t)blockIdx.x * T;
  const int c0 = blockIdx.y * T;
  for (int n = blockIdx.z; n < N; n += gridDim.z) {
    const float* xn = x + (int64_t)n * C * HW;
    for (int k = threadIdx.y; k < T; k += RY) {
      const int c = c0 + k;
      const int64_t p = p0 + threadIdx.x;
      if (c < C && p < HW) tile[k][threadIdx.x] = __fadd_rn(__fmul_rn(__ldg(xn + (int64_t)c * HW + p), __ldg(s + c)), __ldg(b + c));
    }
    __syncthreads();
    float* yn = y + (int64_t)n * HW * C;
    for (int k = threadIdx.y; k < T; k += RY) {
      const int64_t p = p0 + k;
      const int c = c0 + threadIdx.x;
      if (c < C && p < HW) yn[p * C + c] = tile[threadIdx.x][k];
    }
    __syncthreads();
  }
}

torch::Tensor to_nhwc_tile_forward(torch::Tensor x, torch::Tensor s, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && s.is_cuda() && b.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && s.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  auto xc = x.contiguous(); auto sc = s.contiguous(); auto bc = b.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
  TORCH_CHECK(sc.numel() == C && bc.numel() == C, "parameter size mismatch");
  auto out = torch::empty({N, H, W, C}, xc.options());
  if (out.numel() == 0) return out;
  const int64_t HW = H * W;
  const int64_t cb = (C + T - 1) / T;
  TORCH_CHECK(cb <= 65535, "too many channels");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  dim3 grid((unsigned)((HW + T - 1) / T), (unsigned)cb, (unsigned)(N < 65535 ? N : 65535));
  to_nhwc_tile_kernel<<<grid, dim3(T, RY), 0, stream>>>(xc.data_ptr<float>(), sc.data_ptr<float>(), bc.data_ptr<float>(),
                                                         out.data_ptr<float>(), (int)N, (int)C, HW);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor to_nhwc_tile_forward(torch::Tensor x, torch::Tensor s, torch::Tensor b);"

_ext = load_inline(name="t2c_nchw_to_nhwc_affine_smem_transpose", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["to_nhwc_tile_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return _ext.to_nhwc_tile_forward(x, self.scale, self.bias)
