# strategy: smem_async_cached — one block per row stages the whole row in dynamic shared memory with cp.async (16-byte copies when aligned), then an exact two-pass mean/variance and the normalise+affine pass read shared memory: x is read from HBM once; rows too long for shared memory stream three times
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_pipeline.h>
#include <cstdint>
#include <cfloat>

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
// block-wide sum (blockDim.x a multiple of 32); every thread gets the result. `red` holds 32 floats; the
// leading barrier lets the same scratch serve consecutive calls.
__device__ __forceinline__ float block_sum(float v, float* red) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0) red[wid] = v;
  __syncthreads();
  float t = lane < nw ? red[lane] : 0.0f;
  return warp_sum(t);
}

// the row lives in dynamic shared memory: staged with cp.async (no register round trip), then every pass
// reads shared memory only
__global__ void __launch_bounds__(1024) ln_smem_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                       const float* __restrict__ b, float* __restrict__ y,
                                                       int dim, float eps, bool vec) {
  extern __shared__ float4 row4[];
  float* row = reinterpret_cast<float*>(row4);
  __shared__ float red[32];
  const int64_t r = blockIdx.x;
  const float* xr = x + r * (int64_t)dim;
  float* yr = y + r * (int64_t)dim;
  const int n4 = dim >> 2;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    for (int i = threadIdx.x; i < n4; i += blockDim.x) __pipeline_memcpy_async(&row4[i], &x4[i], sizeof(float4));
  } else {
    for (int i = threadIdx.x; i < dim; i += blockDim.x) __pipeline_memcpy_async(&row[i], &xr[i], sizeof(float));
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  // pass 1: mean
  float s = 0.0f;
  if (vec) {
    for (int i = threadIdx.x; i < n4; i += blockDim.x) { const float4 v = row4[i]; s += (v.x + v.y) + (v.z + v.w); }
  } else {
    for (int i = threadIdx.x; i < dim; i += blockDim.x) s += row[i];
  }
  const float mean = block_sum(s, red) / (float)dim;
  // pass 2: biased variance about the exact mean (no E[x^2] - mean^2 cancellation)
  float q = 0.0f;
  if (vec) {
    for (int i = threadIdx.x; i < n4; i += blockDim.x) {
      const float4 v = row4[i];
      const float a = v.x - mean, c = v.y - mean, d = v.z - mean, e = v.w - mean;
      q += (a * a + c * c) + (d * d + e * e);
    }
  } else {
    for (int i = threadIdx.x; i < dim; i += blockDim.x) { const float d = row[i] - mean; q = fmaf(d, d, q); }
  }
  const float inv = rsqrtf(block_sum(q, red) / (float)dim + eps);
  // pass 3: normalise + affine, straight to HBM
  if (vec) {
    const float4* w4 = reinterpret_cast<const float4*>(w);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* y4 = reinterpret_cast<float4*>(yr);
    for (int i = threadIdx.x; i < n4; i += blockDim.x) {
      const float4 v = row4[i], ww = __ldg(&w4[i]), bb = __ldg(&b4[i]);
      float4 o;
      o.x = fmaf((v.x - mean) * inv, ww.x, bb.x);
      o.y = fmaf((v.y - mean) * inv, ww.y, bb.y);
      o.z = fmaf((v.z - mean) * inv, ww.z, bb.z);
      o.w = fmaf((v.w - mean) * inv, ww.w, bb.w);
      y4[i] = o;
    }
  } else {
    for (int i = threadIdx.x; i < dim; i += blockDim.x) yr[i] = fmaf((row[i] - mean) * inv, __ldg(&w[i]), __ldg(&b[i]));
  }
}

// rows longer than shared memory holds: three streaming passes (mean, variance, output) over HBM/L2
__global__ void __launch_bounds__(1024) ln_stream_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                         const float* __restrict__ b, float* __restrict__ y,
                                                         int64_t dim, float eps) {
  __shared__ float red[32];
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float s = 0.0f;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) s += xr[i];
  const float mean = block_sum(s, red) / (float)dim;
  float q = 0.0f;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) { const float d = xr[i] - mean; q = fmaf(d, d, q); }
  const float inv = rsqrtf(block_sum(q, red) / (float)dim + eps);
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) yr[i] = fmaf((xr[i] - mean) * inv, w[i], b[i]);
}

static int g_smem_attr_bytes = 0;   // the dynamic shared memory size ln_smem_kernel is opted in to so far

torch::Tensor layernorm_smem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda() && b.is_cuda(), "affine parameters must be CUDA tensors");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "affine parameters must be float32");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  auto bc = b.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim && bc.numel() == dim, "affine size mismatch");
  auto out = torch::empty_like(xc);
  if (dim == 0 || xc.numel() == 0) return out;
  const int64_t rows = xc.numel() / dim;
  TORCH_CHECK(rows <= 0x7fffffffLL, "too many rows");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  const float* wp = wc.data_ptr<float>();
  const float* bp = bc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  int dev = 0, optin = 48 * 1024;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  // the dynamic buffer is whole float4 (16-byte aligned row, vector copies)
  const int64_t bytes = (dim + 3) / 4 * (int64_t)sizeof(float4);
  const int64_t budget = (int64_t)optin - 1024;   // room for the kernel's static scratch
  if (bytes <= budget) {
    if (bytes > 48 * 1024 && bytes > g_smem_attr_bytes) {
      C10_CUDA_CHECK(cudaFuncSetAttribute(ln_smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
      g_smem_attr_bytes = (int)bytes;
    }
    const bool vec = (dim % 4 == 0) &&
        (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp) | reinterpret_cast<uintptr_t>(wp) |
           reinterpret_cast<uintptr_t>(bp)) & 15) == 0);
    // about 4-16 elements per thread: enough threads to keep the copies in flight, not so many that they idle
    const int64_t per_thread = vec ? 16 : 4;
    int64_t threads = ((dim + per_thread - 1) / per_thread + 31) / 32 * 32;
    if (threads < 32) threads = 32;
    if (threads > 1024) threads = 1024;
    ln_smem_kernel<<<(unsigned)rows, (unsigned)threads, (size_t)bytes, stream>>>(xp, wp, bp, yp, (int)dim, (float)eps, vec);
  } else {
    ln_stream_kernel<<<(unsigned)rows, 1024, 0, stream>>>(xp, wp, bp, yp, dim, (float)eps);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor layernorm_smem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_layernorm_smem_async_cached", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["layernorm_smem_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.ln = nn.LayerNorm(dim, eps=eps)

    def forward(self, x):
        return _ext.layernorm_smem_forward(x, self.ln.weight, self.ln.bias, float(self.ln.eps))
