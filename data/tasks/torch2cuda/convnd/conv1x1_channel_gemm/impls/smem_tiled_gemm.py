# strategy: smem_tiled_gemm — classic shared-memory tiled GEMM per image: 32 (C_out) x 32 (pixels) output tiles, 32x8 threads with 4 outputs each, the C_in dimension walked in 32-wide slabs of W and x staged in shared memory with coalesced loads (W along C_in, x along pixels)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define TS 32
#define TY 8

__global__ void pw_tiled_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                const float* __restrict__ b, float* __restrict__ y,
                                int64_t CI, int64_t CO, int64_t HW) {
  __shared__ float Ws[TS][TS + 1];
  __shared__ float Xs[TS][TS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t p0 = (int64_t)blockIdx.x * TS, co0 = (int64_t)blockIdx.y * TS;
  const int64_t n = blockIdx.z;
  const float* xn = x + n * CI * HW;
  float acc[TS / TY];
#pragma unroll
  for (int r = 0; r < TS / TY; ++r) acc[r] = 0.0f;
  for (int64_t k0 = 0; k0 < CI; k0 += TS) {
#pragma unroll
    for (int r = 0; r < TS / TY; ++r) {
      const int row = ty + r * TY;
      const int64_t co = co0 + row, ci = k0 + tx;
      Ws[row][tx] = (co < CO && ci < CI) ? w[co * CI + ci] : 0.0f;
      const int64_t cx = k0 + row, p = p0 + tx;
      Xs[row][tx] = (cx < CI && p < HW) ? xn[cx * HW + p] : 0.0f;
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TS; ++k) {
      const float xv = Xs[k][tx];
#pragma unroll
      for (int r = 0; r < TS / TY; ++r) acc[r] += Ws[ty + r * TY][k] * xv;
    }
    __syncthreads();
  }
  const int64_t p = p0 + tx;
  if (p >= HW) return;
#pragma unroll
  for (int r = 0; r < TS / TY; ++r) {
    const int64_t co = co0 + ty + r * TY;
    if (co < CO) y[(n * CO + co) * HW + p] = acc[r] + b[co];
  }
}

torch::Tensor pw_tiled_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
              b.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(x.dim() == 4 && w.dim() == 4 && w.size(2) == 1 && w.size(3) == 1, "x is NCHW, w is (C_out, C_in, 1, 1)");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  auto bc = b.contiguous();
  const int64_t N = xc.size(0), CI = xc.size(1), H = xc.size(2), W = xc.size(3);
  const int64_t CO = wc.size(0);
  TORCH_CHECK(wc.size(1) == CI && bc.numel() == CO, "weight/bias shape mismatch");
  auto y = torch::empty({N, CO, H, W}, xc.options());
  const int64_t HW = H * W;
  if (N == 0 || CO == 0 || HW == 0) return y;
  TORCH_CHECK(N <= 65535 && (CO + TS - 1) / TS <= 65535, "grid too large");
  dim3 grid((unsigned)((HW + TS - 1) / TS), (unsigned)((CO + TS - 1) / TS), (unsigned)N);
  pw_tiled_kernel<<<grid, dim3(TS, TY), 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), CI, CO, HW);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor pw_tiled_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

_ext = load_inline(name="t2c_convnd_pw1x1_tiled", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["pw_tiled_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1)

    def forward(self, x):
        return _ext.pw_tiled_forward(x, self.conv.weight, self.conv.bias)
