# strategy: block_reduce — one block per row, coalesced float4 loads, register accumulation and a warp-shuffle block reduction
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
// blockDim.x must be a multiple of 32 and at most 1024; every thread receives the result
__device__ float block_sum(float v) {
  __shared__ float sh_sum[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0) sh_sum[wid] = v;
  __syncthreads();
  const int nw = blockDim.x >> 5;
  if (wid == 0) {
    float t = lane < nw ? sh_sum[lane] : 0.0f;
    t = warp_sum(t);
    if (lane == 0) sh_sum[0] = t;
  }
  __syncthreads();
  return sh_sum[0];
}
__device__ float block_max(float v) {
  __shared__ float sh_max[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_max(v);
  __syncthreads();
  if (lane == 0) sh_max[wid] = v;
  __syncthreads();
  const int nw = blockDim.x >> 5;
  if (wid == 0) {
    float t = lane < nw ? sh_max[lane] : -INFINITY;
    t = warp_max(t);
    if (lane == 0) sh_max[0] = t;
  }
  __syncthreads();
  return sh_max[0];
}

// one block per row: coalesced float4 loads (when aligned), per-thread accumulation, warp-shuffle block reduction
__global__ void red_block_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t dim, bool vec) {
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float acc = -INFINITY;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    for (int64_t i = threadIdx.x; i < dim / 4; i += blockDim.x) {
      const float4 v = x4[i];
      acc = fmaxf(acc, v.x); acc = fmaxf(acc, v.y); acc = fmaxf(acc, v.z); acc = fmaxf(acc, v.w);
    }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) { const float v = xr[i]; acc = fmaxf(acc, v); }
  }
  const float tot = block_max(acc);
  if (threadIdx.x == 0) y[r] = tot;
}
torch::Tensor max_lastdim_block_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(dim > 0, "empty reduction");
  const int64_t rows = xc.numel() / dim;
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const bool vec = (dim % 4 == 0) && ((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) & 15) == 0);
  const int threads = dim >= 8192 ? 512 : (dim >= 512 ? 256 : 64);
  red_block_kernel<<<(unsigned)rows, threads, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), dim, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor max_lastdim_block_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_max_lastdim_block", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["max_lastdim_block_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.max_lastdim_block_forward(x)
