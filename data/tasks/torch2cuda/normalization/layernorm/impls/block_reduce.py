# strategy: block_reduce — one block per row, coalesced float4 loads when aligned, two-pass mean/variance with warp-shuffle block reductions, fused normalise+affine
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

// one block per row: coalesced (float4 when the row length and pointers allow) two-pass mean/variance
// with warp-shuffle block reductions, then a fused normalise + affine pass
__global__ void ln_block_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                const float* __restrict__ b, float* __restrict__ y,
                                int64_t dim, float eps, bool vec) {
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float s = 0.0f;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    for (int64_t i = threadIdx.x; i < dim / 4; i += blockDim.x) { float4 v = x4[i]; s += (v.x + v.y) + (v.z + v.w); }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) s += xr[i];
  }
  const float mean = block_sum(s) / (float)dim;
  float q = 0.0f;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    for (int64_t i = threadIdx.x; i < dim / 4; i += blockDim.x) {
      float4 v = x4[i];
      float a = v.x - mean, c = v.y - mean, d = v.z - mean, e = v.w - mean;
      q += (a * a + c * c) + (d * d + e * e);
    }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) { float d = xr[i] - mean; q += d * d; }
  }
  const float inv = rsqrtf(block_sum(q) / (float)dim + eps);
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const float4* w4 = reinterpret_cast<const float4*>(w);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* y4 = reinterpret_cast<float4*>(yr);
    for (int64_t i = threadIdx.x; i < dim / 4; i += blockDim.x) {
      float4 v = x4[i], ww = w4[i], bb = b4[i], o;
      o.x = (v.x - mean) * inv * ww.x + bb.x;
      o.y = (v.y - mean) * inv * ww.y + bb.y;
      o.z = (v.z - mean) * inv * ww.z + bb.z;
      o.w = (v.w - mean) * inv * ww.w + bb.w;
      y4[i] = o;
    }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) yr[i] = (xr[i] - mean) * inv * w[i] + b[i];
  }
}
torch::Tensor layernorm_block_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  auto bc = b.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim && bc.numel() == dim, "affine size mismatch");
  const int64_t rows = dim == 0 ? 0 : xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const bool vec = (dim % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(out.data_ptr<float>()) |
         reinterpret_cast<uintptr_t>(wc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(bc.data_ptr<float>())) & 15) == 0);
  const int threads = dim >= 4096 ? 512 : (dim >= 512 ? 256 : 64);
  ln_block_kernel<<<(unsigned)rows, threads, 0, stream>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), dim, (float)eps, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor layernorm_block_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_layernorm_block", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["layernorm_block_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.ln = nn.LayerNorm(dim, eps=eps)

    def forward(self, x):
        return _ext.layernorm_block_forward(x, self.ln.weight, self.ln.bias, float(self.ln.eps))
