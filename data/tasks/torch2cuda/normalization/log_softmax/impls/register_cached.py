# strategy: register_cached — the row stays in registers (float4 when aligned; one warp per short row, one 512-thread block per long row): an exact max pass and a sum-of-exp pass over registers, then x - max - log(sum) written from registers, so x is read from HBM once
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

constexpr int kBlock = 512;    // threads of the block-per-row kernels
constexpr int kWarpRows = 8;   // rows per block of the warp-per-row kernel

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
// block-wide max then sum over kBlock threads, separate scratch for each; every thread gets the result
__device__ __forceinline__ float block_max512(float v) {
  __shared__ float red_m[kBlock / 32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_max(v);
  if (lane == 0) red_m[wid] = v;
  __syncthreads();
  return warp_max(lane < kBlock / 32 ? red_m[lane] : -INFINITY);
}
__device__ __forceinline__ float block_sum512(float v) {
  __shared__ float red_s[kBlock / 32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) red_s[wid] = v;
  __syncthreads();
  return warp_sum(lane < kBlock / 32 ? red_s[lane] : 0.0f);
}

// short rows (dim <= 32 * K): one warp per row, K values per lane
template <int K>
__global__ void __launch_bounds__(kWarpRows * 32) lsm_warp_reg_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                       int64_t rows, int dim) {
  const int64_t r = (int64_t)blockIdx.x * kWarpRows + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;   // whole warps leave together
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float v[K];
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lane + 32 * k;
    v[k] = i < dim ? xr[i] : -INFINITY;
    m = fmaxf(m, v[k]);
  }
  m = warp_max(m);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lane + 32 * k;
    if (i < dim) s += expf(v[k] - m);
  }
  const float shift = m + logf(warp_sum(s));
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lane + 32 * k;
    if (i < dim) yr[i] = v[k] - shift;
  }
}

// long aligned rows (n4 = dim / 4 <= kBlock * V): V float4 per thread, all loads issued before the reductions
template <int V>
__global__ void __launch_bounds__(kBlock, 1) lsm_block_reg4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                   int dim) {
  const int64_t r = blockIdx.x;
  const float4* x4 = reinterpret_cast<const float4*>(x + r * dim);
  float4* y4 = reinterpret_cast<float4*>(y + r * dim);
  const int n4 = dim >> 2;
  float4 v[V];
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = threadIdx.x + kBlock * k;
    v[k] = i < n4 ? x4[i] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  }
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < V; ++k) m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
  m = block_max512(m);
  float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = threadIdx.x + kBlock * k;
    if (i < n4) {
      s0 += expf(v[k].x - m) + expf(v[k].y - m);
      s1 += expf(v[k].z - m) + expf(v[k].w - m);
    }
  }
  const float shift = m + logf(block_sum512(s0 + s1));
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = threadIdx.x + kBlock * k;
    if (i < n4) y4[i] = make_float4(v[k].x - shift, v[k].y - shift, v[k].z - shift, v[k].w - shift);
  }
}

// long rows without float4 alignment (dim <= kBlock * K): K scalars per thread
template <int K>
__global__ void __launch_bounds__(kBlock, 1) lsm_block_reg1_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                   int dim) {
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float v[K];
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = threadIdx.x + kBlock * k;
    v[k] = i < dim ? xr[i] : -INFINITY;
    m = fmaxf(m, v[k]);
  }
  m = block_max512(m);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = threadIdx.x + kBlock * k;
    if (i < dim) s += expf(v[k] - m);
  }
  const float shift = m + logf(block_sum512(s));
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = threadIdx.x + kBlock * k;
    if (i < dim) yr[i] = v[k] - shift;
  }
}

// rows beyond the register budget: max pass, sum-of-exp pass and output pass over HBM/L2
__global__ void __launch_bounds__(kBlock) lsm_block_stream_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                                  int64_t dim) {
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float m = -INFINITY;
  for (int64_t i = threadIdx.x; i < dim; i += kBlock) m = fmaxf(m, xr[i]);
  m = block_max512(m);
  float s = 0.0f;
  for (int64_t i = threadIdx.x; i < dim; i += kBlock) s += expf(xr[i] - m);
  const float shift = m + logf(block_sum512(s));
  for (int64_t i = threadIdx.x; i < dim; i += kBlock) yr[i] = xr[i] - shift;
}

torch::Tensor log_softmax_regcache_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  auto out = torch::empty_like(xc);
  if (dim == 0 || xc.numel() == 0) return out;
  const int64_t rows = xc.numel() / dim;
  TORCH_CHECK(rows <= 0x7fffffffLL, "too many rows");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  if (dim <= 1024) {
    const unsigned grid = (unsigned)((rows + kWarpRows - 1) / kWarpRows);
    const int threads = kWarpRows * 32, d = (int)dim;
    if (dim <= 32) lsm_warp_reg_kernel<1><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 64) lsm_warp_reg_kernel<2><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 128) lsm_warp_reg_kernel<4><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 256) lsm_warp_reg_kernel<8><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 512) lsm_warp_reg_kernel<16><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else lsm_warp_reg_kernel<32><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
  }
  const unsigned grid = (unsigned)rows;
  const bool vec = (dim % 4 == 0) && (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
  const int d = (int)(dim < 0x7fffffffLL ? dim : 0);   // only used by the register kernels (dim <= 65536)
  if (vec) {
    const int64_t n4 = dim / 4;
    if (n4 <= kBlock * 1) lsm_block_reg4_kernel<1><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (n4 <= kBlock * 2) lsm_block_reg4_kernel<2><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (n4 <= kBlock * 4) lsm_block_reg4_kernel<4><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (n4 <= kBlock * 8) lsm_block_reg4_kernel<8><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (n4 <= kBlock * 12) lsm_block_reg4_kernel<12><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (n4 <= kBlock * 16) lsm_block_reg4_kernel<16><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (n4 <= kBlock * 24) lsm_block_reg4_kernel<24><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else lsm_block_stream_kernel<<<grid, kBlock, 0, stream>>>(xp, yp, dim);
  } else {
    if (dim <= kBlock * 4) lsm_block_reg1_kernel<4><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (dim <= kBlock * 8) lsm_block_reg1_kernel<8><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (dim <= kBlock * 16) lsm_block_reg1_kernel<16><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (dim <= kBlock * 32) lsm_block_reg1_kernel<32><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else if (dim <= kBlock * 64) lsm_block_reg1_kernel<64><<<grid, kBlock, 0, stream>>>(xp, yp, d);
    else lsm_block_stream_kernel<<<grid, kBlock, 0, stream>>>(xp, yp, dim);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor log_softmax_regcache_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_log_softmax_register_cached", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["log_softmax_regcache_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.log_softmax_regcache_forward(x)
