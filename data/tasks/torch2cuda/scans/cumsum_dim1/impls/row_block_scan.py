# strategy: row_block_scan — single pass, one block per (batch, 128-feature tile): 16 warps load 16 consecutive rows at once (a float4 of 4 features per lane when features % 4 == 0, else one feature per lane), the rows are scanned across warps through shared memory, and a per-column running carry kept in registers links the 16-row steps
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int kWarps = 16;

// T = float4 (U = F / 4 units per row) or float (U = F); block (tile, b): units u0 .. u0 + 31 of batch b
template <typename T, int W>
__global__ void __launch_bounds__(32 * kWarps) cumsum_rows_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t L, int64_t U) {
  __shared__ float sh[kWarps][32 * W + 1];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int64_t u = (int64_t)blockIdx.x * 32 + lane;
  const bool active = u < U;
  const int64_t b = blockIdx.y;
  const T* xb = x + b * L * U + u;
  T* yb = y + b * L * U + u;
  float carry[W];
#pragma unroll
  for (int k = 0; k < W; ++k) carry[k] = 0.0f;
  for (int64_t l0 = 0; l0 < L; l0 += kWarps) {
    const int64_t l = l0 + w;
    float v[W];
    if (active && l < L) {
      const T t = __ldg(xb + l * U);
      const float* tp = reinterpret_cast<const float*>(&t);
#pragma unroll
      for (int k = 0; k < W; ++k) v[k] = tp[k];
    } else {
#pragma unroll
      for (int k = 0; k < W; ++k) v[k] = 0.0f;
    }
#pragma unroll
    for (int k = 0; k < W; ++k) sh[w][lane * W + k] = v[k];
    __syncthreads();
    float out[W], tot[W];
#pragma unroll
    for (int k = 0; k < W; ++k) { out[k] = carry[k]; tot[k] = 0.0f; }
    for (int q = 0; q < kWarps; ++q) {
#pragma unroll
      for (int k = 0; k < W; ++k) {
        const float s = sh[q][lane * W + k];
        tot[k] += s;
        if (q <= w) out[k] += s;
      }
    }
#pragma unroll
    for (int k = 0; k < W; ++k) carry[k] += tot[k];
    if (active && l < L) {
      T t;
      float* tp = reinterpret_cast<float*>(&t);
#pragma unroll
      for (int k = 0; k < W; ++k) tp[k] = out[k];
      yb[l * U] = t;
    }
    __syncthreads();
  }
}

torch::Tensor cumsum_dim1_rows(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  TORCH_CHECK(x.dim() == 3, "x must be (batch, length, features)");
  auto xc = x.contiguous();
  auto y = torch::empty_like(xc);
  if (xc.numel() == 0) return y;
  const int64_t B = xc.size(0), L = xc.size(1), F = xc.size(2);
  TORCH_CHECK(B <= 65535, "batch mapped to grid.y (at most 65535)");
  const float* xp = xc.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const bool vec = F % 4 == 0 && ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0;
  if (vec) {
    const int64_t U = F / 4;
    dim3 grid((unsigned)((U + 31) / 32), (unsigned)B);
    cumsum_rows_kernel<float4, 4><<<grid, 32 * kWarps, 0, stream>>>(reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), L, U);
  } else {
    dim3 grid((unsigned)((F + 31) / 32), (unsigned)B);
    cumsum_rows_kernel<float, 1><<<grid, 32 * kWarps, 0, stream>>>(xp, yp, L, F);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor cumsum_dim1_rows(torch::Tensor x);"

_ext = load_inline(name="t2c_scans_cumsum_dim1_rows", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cumsum_dim1_rows"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.cumsum_dim1_rows(x)
