# strategy: smem_row_cache — one block per row; x + residual is read from HBM once into dynamic shared memory (float4 when aligned), exact two-pass mean/variance and the affine output all come from that cache
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

__device__ __forceinline__ float warp_reduce_add(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
// tree sum over the block (blockDim.x a multiple of 32); every thread gets the total
__device__ __forceinline__ float block_reduce_add(float v, float* scratch) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  v = warp_reduce_add(v);
  if (lane == 0) scratch[wid] = v;
  __syncthreads();
  float t = lane < nw ? scratch[lane] : 0.0f;
  t = warp_reduce_add(t);
  __syncthreads();  // scratch is reused by the next reduction
  return t;
}

// CACHED: the row of s = x + r lives in dynamic shared memory (one HBM read of x and r);
// otherwise (row too long for shared memory) every pass forms s again from global memory
template <bool CACHED, bool VEC>
__global__ void __launch_bounds__(1024) ral_smem_kernel(const float* __restrict__ x, const float* __restrict__ r,
    const float* __restrict__ w, const float* __restrict__ b, float* __restrict__ y, int64_t dim, float eps) {
  extern __shared__ float4 srow4[];
  float* srow = reinterpret_cast<float*>(srow4);
  __shared__ float scratch[32];
  const int64_t row = blockIdx.x;
  const float* xr = x + row * dim;
  const float* rr = r + row * dim;
  float* yr = y + row * dim;
  const int64_t n4 = dim / 4;
  // pass 1: load (and cache) s, partial sums
  float s = 0.0f;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const float4* r4 = reinterpret_cast<const float4*>(rr);
    int64_t i = threadIdx.x;
    for (; i + blockDim.x < n4; i += 2 * blockDim.x) {  // two independent float4 pairs per step
      const float4 a0 = __ldcs(x4 + i), c0 = __ldcs(r4 + i);
      const float4 a1 = __ldcs(x4 + i + blockDim.x), c1 = __ldcs(r4 + i + blockDim.x);
      const float4 v0 = make_float4(a0.x + c0.x, a0.y + c0.y, a0.z + c0.z, a0.w + c0.w);
      const float4 v1 = make_float4(a1.x + c1.x, a1.y + c1.y, a1.z + c1.z, a1.w + c1.w);
      if (CACHED) { srow4[i] = v0; srow4[i + blockDim.x] = v1; }
      s += ((v0.x + v0.y) + (v0.z + v0.w)) + ((v1.x + v1.y) + (v1.z + v1.w));
    }
    for (; i < n4; i += blockDim.x) {
      const float4 a0 = __ldcs(x4 + i), c0 = __ldcs(r4 + i);
      const float4 v0 = make_float4(a0.x + c0.x, a0.y + c0.y, a0.z + c0.z, a0.w + c0.w);
      if (CACHED) srow4[i] = v0;
      s += (v0.x + v0.y) + (v0.z + v0.w);
    }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) {
      const float v = xr[i] + rr[i];
      if (CACHED) srow[i] = v;
      s += v;
    }
  }
  const float mean = block_reduce_add(s, scratch) / (float)dim;  // its barrier also publishes the cache
  // pass 2: exact centred sum of squares
  float q = 0.0f;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const float4* r4 = reinterpret_cast<const float4*>(rr);
    for (int64_t i = threadIdx.x; i < n4; i += blockDim.x) {
      float4 v;
      if (CACHED) v = srow4[i];
      else { const float4 a = x4[i], c = r4[i]; v = make_float4(a.x + c.x, a.y + c.y, a.z + c.z, a.w + c.w); }
      const float d0 = v.x - mean, d1 = v.y - mean, d2 = v.z - mean, d3 = v.w - mean;
      q += (d0 * d0 + d1 * d1) + (d2 * d2 + d3 * d3);
    }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) {
      const float d = (CACHED ? srow[i] : xr[i] + rr[i]) - mean;
      q += d * d;
    }
  }
  const float inv = rsqrtf(block_reduce_add(q, scratch) / (float)dim + eps);
  // pass 3: normalise + affine
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const float4* r4 = reinterpret_cast<const float4*>(rr);
    const float4* w4 = reinterpret_cast<const float4*>(w);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* y4 = reinterpret_cast<float4*>(yr);
    for (int64_t i = threadIdx.x; i < n4; i += blockDim.x) {
      float4 v;
      if (CACHED) v = srow4[i];
      else { const float4 a = x4[i], c = r4[i]; v = make_float4(a.x + c.x, a.y + c.y, a.z + c.z, a.w + c.w); }
      const float4 ww = __ldg(w4 + i), bb = __ldg(b4 + i);
      float4 o;
      o.x = fmaf((v.x - mean) * inv, ww.x, bb.x);
      o.y = fmaf((v.y - mean) * inv, ww.y, bb.y);
      o.z = fmaf((v.z - mean) * inv, ww.z, bb.z);
      o.w = fmaf((v.w - mean) * inv, ww.w, bb.w);
      __stcs(y4 + i, o);
    }
  } else {
    for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) {
      const float v = CACHED ? srow[i] : xr[i] + rr[i];
      yr[i] = fmaf((v - mean) * inv, __ldg(w + i), __ldg(b + i));
    }
  }
}

template <bool CACHED, bool VEC>
static void launch_ral(const float* x, const float* r, const float* w, const float* b, float* y, int64_t rows, int64_t dim,
                       float eps, int threads, size_t smem, cudaStream_t stream) {
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(ral_smem_kernel<CACHED, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    TORCH_CHECK(e == cudaSuccess, "cudaFuncSetAttribute failed: ", cudaGetErrorString(e));
  }
  ral_smem_kernel<CACHED, VEC><<<(unsigned)rows, threads, smem, stream>>>(x, r, w, b, y, dim, eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor residual_add_layernorm_smem_forward(torch::Tensor x, torch::Tensor r, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(r.is_cuda(), "r must be a CUDA tensor");
  TORCH_CHECK(r.scalar_type() == torch::kFloat32, "r must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.sizes() == r.sizes(), "x and residual must have one shape");
  auto xc = x.contiguous(); auto rc = r.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim && bc.numel() == dim, "affine size mismatch");
  const int64_t rows = dim == 0 ? 0 : xc.numel() / dim;
  auto out = torch::empty_like(xc);
  if (rows == 0) return out;
  TORCH_CHECK(rows <= 2147483647LL, "too many rows for this grid");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const bool vec = (dim % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(rc.data_ptr<float>()) |
         reinterpret_cast<uintptr_t>(out.data_ptr<float>()) | reinterpret_cast<uintptr_t>(wc.data_ptr<float>()) |
         reinterpret_cast<uintptr_t>(bc.data_ptr<float>())) & 15) == 0);
  const int64_t work = vec ? dim / 4 : dim;  // items per row pass
  int threads = 32;
  while (threads < 1024 && threads * 4 < work) threads *= 2;  // about four items per thread, 32..1024 threads
  int dev = 0, optin = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  const size_t row_bytes = (size_t)((dim + 3) / 4) * 16;  // whole float4 slots
  const size_t budget = optin > 1024 ? (size_t)optin - 1024 : 0;  // leave room for the static scratch
  const bool cached = row_bytes <= budget;
  const float* xp = xc.data_ptr<float>(); const float* rp = rc.data_ptr<float>();
  const float* wp = wc.data_ptr<float>(); const float* bp = bc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  if (cached && vec) launch_ral<true, true>(xp, rp, wp, bp, yp, rows, dim, (float)eps, threads, row_bytes, stream);
  else if (cached) launch_ral<true, false>(xp, rp, wp, bp, yp, rows, dim, (float)eps, threads, row_bytes, stream);
  else if (vec) launch_ral<false, true>(xp, rp, wp, bp, yp, rows, dim, (float)eps, threads, 0, stream);
  else launch_ral<false, false>(xp, rp, wp, bp, yp, rows, dim, (float)eps, threads, 0, stream);
  return out;
}
"""

cpp_src = "torch::Tensor residual_add_layernorm_smem_forward(torch::Tensor x, torch::Tensor r, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_ral_smem_cache", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["residual_add_layernorm_smem_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.ln = nn.LayerNorm(dim, eps=eps)

    def forward(self, x, residual):
        return _ext.residual_add_layernorm_smem_forward(x, residual, self.ln.weight, self.ln.bias, float(self.ln.eps))
