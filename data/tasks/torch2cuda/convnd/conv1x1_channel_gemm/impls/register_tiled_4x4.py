# strategy: register_tiled_4x4 — 64 (C_out) x 64 (pixels) block tiles with 16x16 threads, each thread holding a 4x4 register micro-tile; 16-deep C_in slabs of W (stored transposed, k-major) and x in shared memory, so each k step is 8 shared loads for 16 FMAs
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define BM 64
#define BN 64
#define BK 16
#define RM 4
#define RN 4

__global__ void pw_reg_kernel(const float* __restrict__ x, const float* __restrict__ w,
                              const float* __restrict__ b, float* __restrict__ y,
                              int64_t CI, int64_t CO, int64_t HW) {
  __shared__ float Wt[BK][BM];
  __shared__ float Xs[BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * 16 + tx;
  const int64_t p0 = (int64_t)blockIdx.x * BN, co0 = (int64_t)blockIdx.y * BM;
  const int64_t n = blockIdx.z;
  const float* xn = x + n * CI * HW;
  float acc[RM][RN];
#pragma unroll
  for (int i = 0; i < RM; ++i)
#pragma unroll
    for (int j = 0; j < RN; ++j) acc[i][j] = 0.0f;
  for (int64_t k0 = 0; k0 < CI; k0 += BK) {
#pragma unroll
    for (int l = 0; l < (BK * BM) / 256; ++l) {
      const int e = tid + l * 256;
      // W slab: element (co = e / BK, k = e % BK), read along C_in, written k-major
      const int wm = e / BK, wk = e % BK;
      const int64_t co = co0 + wm, ci = k0 + wk;
      Wt[wk][wm] = (co < CO && ci < CI) ? w[co * CI + ci] : 0.0f;
      // x slab: element (k = e / BN, p = e % BN), read along pixels
      const int xk = e / BN, xp = e % BN;
      const int64_t cx = k0 + xk, p = p0 + xp;
      Xs[xk][xp] = (cx < CI && p < HW) ? xn[cx * HW + p] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[RM], c[RN];
#pragma unroll
      for (int i = 0; i < RM; ++i) a[i] = Wt[k][ty * RM + i];
#pragma unroll
      for (int j = 0; j < RN; ++j) c[j] = Xs[k][tx * RN + j];
#pragma unroll
      for (int i = 0; i < RM; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j) acc[i][j] += a[i] * c[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < RM; ++i) {
    const int64_t co = co0 + ty * RM + i;
    if (co >= CO) continue;
    const float bb = b[co];
    float* yr = y + (n * CO + co) * HW;
#pragma unroll
    for (int j = 0; j < RN; ++j) {
      const int64_t p = p0 + tx * RN + j;
      if (p < HW) yr[p] = acc[i][j] + bb;
    }
  }
}

torch::Tensor pw_reg_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
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
  TORCH_CHECK(N <= 65535 && (CO + BM - 1) / BM <= 65535, "grid too large");
  dim3 grid((unsigned)((HW + BN - 1) / BN), (unsigned)((CO + BM - 1) / BM), (unsigned)N);
  pw_reg_kernel<<<grid, dim3(16, 16), 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), CI, CO, HW);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor pw_reg_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

_ext = load_inline(name="t2c_convnd_pw1x1_reg", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["pw_reg_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1)

    def forward(self, x):
        return _ext.pw_reg_forward(x, self.conv.weight, self.conv.bias)
