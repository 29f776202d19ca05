# strategy: wide_tile_float4 — 32 channels x 128 pixels per block: each warp loads a channel row segment as 128-bit float4 vectors (scalar loads when H*W % 4 != 0 or at the tail), applies the affine while staging, then writes 128 NHWC rows of 32 channels from a conflict-free padded tile
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int TC = 32, TP = 128, NW = 8;

__device__ __forceinline__ float affine(float v, float s, float b) { return __fadd_rn(__fmul_rn(v, s), b); }

__global__ void __launch_bounds__(TC * NW) to_nhwc_wide_kernel(const float* __restrict__ x, const float* __restrict__ s,
    const float* __restrict__ b, float* __restrict__ y, int N, int C, int64_t HW, int vec) {
  __shared__ float tile[TC][TP + 1];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t p0 = (int64_t)blockIdx.x * TP;
  const int c0 = blockIdx.y * TC;
  for (int n = blockIdx.z; n < N; n += gridDim.z) {
    const float* xn = x + (int64_t)n * C * HW;
    for (int k = warp; k < TC; k += NW) {
      const int c = c0 + k;
      if (c >= C) continue;
      const float sc = __ldg(s + c), bc = __ldg(b + c);
      const int64_t p = p0 + 4 * lane;
      const float* row = xn + (int64_t)c * HW;
      if (vec && p + 3 < HW) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(row + p));
        tile[k][4 * lane + 0] = affine(v.x, sc, bc);
        tile[k][4 * lane + 1] = affine(v.y, sc, bc);
        tile[k][4 * lane + 2] = affine(v.z, sc, bc);
        tile[k][4 * lane + 3] = affine(v.w, sc, bc);
      } else {
        for (int q = 0; q < 4; ++q)
          if (p + q < HW) tile[k][4 * lane + q] = affine(__ldg(row + p + q), sc, bc);
      }
    }
    __syncthreads();
    float* yn = y + (int64_t)n * HW * C;
    const int c = c0 + lane;
    if (c < C) {
      for (int q = warp; q < TP; q += NW) {
        const int64_t p = p0 + q;
        if (p < HW) yn[p * C + c] = tile[lane][q];
      }
    }
    __syncthreads();
  }
}

torch::Tensor to_nhwc_wide_forward(torch::Tensor x, torch::Tensor s, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && s.is_cuda() && b.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && s.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  auto xc = x.contiguous(); auto sc = s.contiguous(); auto bc = b.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
  TORCH_CHECK(sc.numel() == C && bc.numel() == C, "parameter size mismatch");
  auto out = torch::empty({N, H, W, C}, xc.options());
  if (out.numel() == 0) return out;
  const int64_t HW = H * W;
  const int64_t cb = (C + TC - 1) / TC;
  TORCH_CHECK(cb <= 65535, "too many channels");
  const float* xp = xc.data_ptr<float>();
  const int vec = (HW % 4 == 0 && (reinterpret_cast<uintptr_t>(xp) & 15) == 0) ? 1 : 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  dim3 grid((unsigned)((HW + TP - 1) / TP), (unsigned)cb, (unsigned)(N < 65535 ? N : 65535));
  to_nhwc_wide_kernel<<<grid, TC * NW, 0, stream>>>(xp, sc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(),
                                                    (int)N, (int)C, HW, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor to_nhwc_wide_forward(torch::Tensor x, torch::Tensor s, torch::Tensor b);"

_ext = load_inline(name="t2c_nchw_to_nhwc_affine_wide_tile", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["to_nhwc_wide_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return _ext.to_nhwc_wide_forward(x, self.scale, self.bias)
