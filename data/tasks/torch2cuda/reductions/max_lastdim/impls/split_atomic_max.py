# strategy: split_atomic_max — rows are cut into 8192-element chunks so the grid has many small CTAs; each CTA reduces its chunk with unrolled float4 loads and a shuffle tree, then folds it into the row's output with one integer atomicMax/atomicMin on the float's bit pattern (exact, so the result does not depend on the order)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

constexpr int kChunk = 8192;   // elements per CTA (a multiple of 4)
constexpr int kUnroll = 4;     // independent loads in flight per thread

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
// float max through integer atomics: non-negative floats order like signed ints, negative floats order
// in reverse as unsigned ints. The slot starts at -inf; -0.0 is folded as +0.0 so it can replace -inf.
__device__ __forceinline__ void atomic_max_float(float* addr, float v) {
  v = v + 0.0f;   // -0.0 -> +0.0
  if (v >= 0.0f) atomicMax(reinterpret_cast<int*>(addr), __float_as_int(v));
  else atomicMin(reinterpret_cast<unsigned int*>(addr), __float_as_uint(v));
}

__global__ void max_init_kernel(float* __restrict__ y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = -INFINITY;
}

template <bool VEC>
__global__ void __launch_bounds__(256) max_chunk_kernel(const float* __restrict__ x, float* __restrict__ y, int dim, int S) {
  __shared__ float red[8];
  const int64_t b = blockIdx.x;
  const int64_t row = b / S;
  const int c = (int)(b % S);
  const float* xr = x + row * (int64_t)dim;
  const int lo = c * kChunk;
  const int hi = min(lo + kChunk, dim);
  const int T = blockDim.x;
  float m0 = -INFINITY, m1 = -INFINITY;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    const int lo4 = lo >> 2, hi4 = hi >> 2;
    for (int base = lo4 + threadIdx.x; base < hi4; base += T * kUnroll) {
      float4 t[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const int i4 = base + k * T;
        t[k] = i4 < hi4 ? x4[i4] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      }
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        m0 = fmaxf(m0, fmaxf(t[k].x, t[k].y));
        m1 = fmaxf(m1, fmaxf(t[k].z, t[k].w));
      }
    }
  } else {
    for (int base = lo + threadIdx.x; base < hi; base += T * kUnroll) {
      float t[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const int e = base + k * T;
        t[k] = e < hi ? xr[e] : -INFINITY;
      }
      m0 = fmaxf(m0, fmaxf(t[0], t[1]));
      m1 = fmaxf(m1, fmaxf(t[2], t[3]));
    }
  }
  float m = warp_max(fmaxf(m0, m1));
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  if (lane == 0) red[wid] = m;
  __syncthreads();
  if (wid == 0) {
    m = warp_max(lane < (T >> 5) ? red[lane] : -INFINITY);
    if (lane == 0) {
      if (S == 1) y[row] = m;   // the whole row is this CTA's: a plain store
      else atomic_max_float(&y[row], m);
    }
  }
}

torch::Tensor max_lastdim_split_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(dim > 0, "empty reduction");
  TORCH_CHECK(dim < 0x7fffffffLL - kChunk, "rows too long for 32-bit offsets");
  const int64_t rows = xc.numel() / dim;
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  const int S = (int)((dim + kChunk - 1) / kChunk);
  TORCH_CHECK(rows * S <= 0x7fffffffLL, "too many rows");
  if (S > 1) {
    max_init_kernel<<<(unsigned)((rows + 255) / 256), 256, 0, stream>>>(yp, rows);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  const bool vec = (dim % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
  const int64_t len = dim < kChunk ? dim : kChunk;
  int64_t threads = ((len + (vec ? 15 : 3)) / (vec ? 16 : 4) + 31) / 32 * 32;
  if (threads > 256) threads = 256;
  if (threads < 32) threads = 32;
  const unsigned grid = (unsigned)(rows * S);
  if (vec) max_chunk_kernel<true><<<grid, (unsigned)threads, 0, stream>>>(xp, yp, (int)dim, S);
  else max_chunk_kernel<false><<<grid, (unsigned)threads, 0, stream>>>(xp, yp, (int)dim, S);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor max_lastdim_split_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_max_lastdim_split_atomic_max", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["max_lastdim_split_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.max_lastdim_split_forward(x)
