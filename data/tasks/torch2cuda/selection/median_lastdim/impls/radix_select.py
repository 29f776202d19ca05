# strategy: radix_select — one block per row, four 8-bit digit passes over order-preserving uint32 keys: shared-memory atomic histograms of the still-matching keys (coalesced global reads), the digit holding the target rank found by a warp scan, no sorting
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ unsigned okey(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float okey_inv(unsigned k) {
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

__global__ void __launch_bounds__(512) median_radix_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t dim) {
  __shared__ int hist[256];
  __shared__ unsigned s_prefix;
  __shared__ long long s_want;
  const float* xr = x + (int64_t)blockIdx.x * dim;
  unsigned prefix = 0, mask = 0;
  long long want = (dim - 1) / 2;  // rank among the keys that still match prefix on the masked bits
  for (int shift = 24; shift >= 0; shift -= 8) {
    for (int i = threadIdx.x; i < 256; i += blockDim.x) hist[i] = 0;
    __syncthreads();
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) {
      const unsigned k = okey(xr[i]);
      if ((k & mask) == prefix) atomicAdd(&hist[(k >> shift) & 255u], 1);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
      // lane l owns bins 8l .. 8l+7
      const int lane = threadIdx.x;
      int own = 0;
#pragma unroll
      for (int b = 0; b < 8; ++b) own += hist[lane * 8 + b];
      int inc = own;
      for (int o = 1; o < 32; o <<= 1) {
        const int n = __shfl_up_sync(0xffffffffu, inc, o);
        if (lane >= o) inc += n;
      }
      long long before = inc - own;
      if (want >= before && want < inc) {
        for (int b = 0; b < 8; ++b) {
          const int h = hist[lane * 8 + b];
          if (want < before + h) {
            s_prefix = prefix | ((unsigned)(lane * 8 + b) << shift);
            s_want = want - before;
            break;
          }
          before += h;
        }
      }
    }
    __syncthreads();
    prefix = s_prefix;
    want = s_want;
    mask |= 255u << shift;
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = okey_inv(prefix);
}

torch::Tensor median_radix_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  TORCH_CHECK(x.dim() == 2 && x.size(1) > 0, "x must be (rows, dim) with dim > 0");
  TORCH_CHECK(x.size(1) < (1LL << 31), "row too long");
  auto xc = x.contiguous();
  const int64_t rows = xc.size(0), dim = xc.size(1);
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  const int threads = dim >= 4096 ? 512 : (dim >= 512 ? 256 : 128);
  median_radix_kernel<<<(unsigned)rows, threads, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(), out.data_ptr<float>(), dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor median_radix_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_median_lastdim_radix_select", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["median_radix_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.median_radix_forward(x)
