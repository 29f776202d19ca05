# strategy: warp_block_reduce — warp-per-row shuffle reduction for short rows, block-per-row float4 reduction for long rows, fused scaling pass
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

// rows of up to 1024 elements: one warp per row (8 rows per block), warp-shuffle reduction, no barriers.
__global__ void rms_warp_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                int64_t rows, int64_t dim, float eps) {
  const int64_t r = (int64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float q = 0.0f;
  for (int64_t i = lane; i < dim; i += 32) { float v = xr[i]; q += v * v; }
  q = warp_sum(q);
  const float inv = rsqrtf(q / (float)dim + eps);
  for (int64_t i = lane; i < dim; i += 32) yr[i] = xr[i] * inv * w[i];
}
// longer rows: one block per row, float4 loads when aligned, block reduction
__global__ void rms_block_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                 int64_t dim, float eps, bool vec) {
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float q = 0.0f;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    for (int64_t i = threadIdx.x; i < dim / 4; i += blockDim.x) { float4 v = x4[i]; q += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w); }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) { float v = xr[i]; q += v * v; }
  }
  const float inv = rsqrtf(block_sum(q) / (float)dim + eps);
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const float4* w4 = reinterpret_cast<const float4*>(w);
    float4* y4 = reinterpret_cast<float4*>(yr);
    for (int64_t i = threadIdx.x; i < dim / 4; i += blockDim.x) {
      float4 v = x4[i], ww = w4[i];
      y4[i] = make_float4(v.x * inv * ww.x, v.y * inv * ww.y, v.z * inv * ww.z, v.w * inv * ww.w);
    }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) yr[i] = xr[i] * inv * w[i];
  }
}
torch::Tensor rmsnorm_fast_forward(torch::Tensor x, torch::Tensor w, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim, "weight size mismatch");
  const int64_t rows = dim == 0 ? 0 : xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  if (dim <= 1024) {
    const int threads = 256;
    const int64_t rows_per_block = threads / 32;
    rms_warp_kernel<<<(unsigned)((rows + rows_per_block - 1) / rows_per_block), threads, 0, stream>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(), rows, dim, (float)eps);
  } else {
    const bool vec = (dim % 4 == 0) &&
        (((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(out.data_ptr<float>()) |
           reinterpret_cast<uintptr_t>(wc.data_ptr<float>())) & 15) == 0);
    const int threads = dim >= 8192 ? 512 : 256;
    rms_block_kernel<<<(unsigned)rows, threads, 0, stream>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(), dim, (float)eps, vec);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor rmsnorm_fast_forward(torch::Tensor x, torch::Tensor w, double eps);"

_ext = load_inline(name="t2c_rmsnorm_fast", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rmsnorm_fast_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return _ext.rmsnorm_fast_forward(x, self.weight, float(self.eps))
