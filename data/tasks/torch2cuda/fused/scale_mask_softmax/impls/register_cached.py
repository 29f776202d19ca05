# strategy: register_cached — the scaled+masked row is read once into registers (a warp per row for short rows, a 256-thread block for long ones, float4 when aligned), exact max then exp-sum, one write pass; no re-read of scores or mask
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

__device__ __forceinline__ float wmax(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float wsum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// short rows (S <= 32 * V): one warp per row, V values per lane in registers, lane j holds the
// elements j, j + 32, ... (coalesced), reductions by shuffles only; 8 rows per 256-thread block
template <int V>
__global__ void __launch_bounds__(256) sms_warp_kernel(const float* __restrict__ s, const float* __restrict__ mask,
    float* __restrict__ y, int64_t rows, int64_t Sq, int S, float scale) {
  const int lane = threadIdx.x & 31;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= rows) return;  // whole warps leave together
  const float* sr = s + row * S;
  const float* mr = mask + (row % Sq) * S;
  float* yr = y + row * S;
  float v[V];
  float m = -INFINITY;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int i = lane + 32 * j;
    v[j] = i < S ? fmaf(__ldcs(sr + i), scale, __ldg(mr + i)) : -INFINITY;
    m = fmaxf(m, v[j]);
  }
  m = wmax(m);
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int i = lane + 32 * j;
    v[j] = i < S ? expf(v[j] - m) : 0.0f;
    sum += v[j];
  }
  const float inv = 1.0f / wsum(sum);
#pragma unroll
  for (int j = 0; j < V; ++j) {
    const int i = lane + 32 * j;
    if (i < S) __stcs(yr + i, v[j] * inv);
  }
}

// block-wide max / sum for the long-row kernel (256 threads = 8 warps)
__device__ __forceinline__ float bmax256(float v, float* scratch) {
  v = wmax(v);
  if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = v;
  __syncthreads();
  float t = (threadIdx.x & 31) < 8 ? scratch[threadIdx.x & 31] : -INFINITY;
  t = wmax(t);
  __syncthreads();
  return t;
}
__device__ __forceinline__ float bsum256(float v, float* scratch) {
  v = wsum(v);
  if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = v;
  __syncthreads();
  float t = (threadIdx.x & 31) < 8 ? scratch[threadIdx.x & 31] : 0.0f;
  t = wsum(t);
  __syncthreads();
  return t;
}

// long rows: one 256-thread block per row, V4 float4 slots per thread (4 * V4 values in registers);
// slot j of thread t is float4 number t + 256 j of the row. VEC: S % 4 == 0 and 16-byte aligned rows,
// else the same layout read element by element with bounds checks
template <int V4, bool VEC>
__global__ void __launch_bounds__(256) sms_block_kernel(const float* __restrict__ s, const float* __restrict__ mask,
    float* __restrict__ y, int64_t Sq, int S, float scale) {
  __shared__ float scratch[8];
  const int64_t row = blockIdx.x;
  const float* sr = s + row * S;
  const float* mr = mask + (row % Sq) * S;
  float* yr = y + row * S;
  float v[4 * V4];
  float m = -INFINITY;
#pragma unroll
  for (int j = 0; j < V4; ++j) {
    const int q = threadIdx.x + 256 * j;  // float4 slot
    if (VEC) {
      if (4 * q < S) {
        const float4 a = __ldcs(reinterpret_cast<const float4*>(sr) + q);
        const float4 k = __ldg(reinterpret_cast<const float4*>(mr) + q);
        v[4 * j] = fmaf(a.x, scale, k.x); v[4 * j + 1] = fmaf(a.y, scale, k.y);
        v[4 * j + 2] = fmaf(a.z, scale, k.z); v[4 * j + 3] = fmaf(a.w, scale, k.w);
      } else {
        v[4 * j] = v[4 * j + 1] = v[4 * j + 2] = v[4 * j + 3] = -INFINITY;
      }
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int i = 4 * q + e;
        v[4 * j + e] = i < S ? fmaf(sr[i], scale, __ldg(mr + i)) : -INFINITY;
      }
    }
#pragma unroll
    for (int e = 0; e < 4; ++e) m = fmaxf(m, v[4 * j + e]);
  }
  m = bmax256(m, scratch);
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < 4 * V4; ++j) {
    const int i = 4 * (threadIdx.x + 256 * (j >> 2)) + (j & 3);
    v[j] = i < S ? expf(v[j] - m) : 0.0f;
    sum += v[j];
  }
  const float inv = 1.0f / bsum256(sum, scratch);
#pragma unroll
  for (int j = 0; j < V4; ++j) {
    const int q = threadIdx.x + 256 * j;
    if (VEC) {
      if (4 * q < S)
        __stcs(reinterpret_cast<float4*>(yr) + q, make_float4(v[4 * j] * inv, v[4 * j + 1] * inv, v[4 * j + 2] * inv, v[4 * j + 3] * inv));
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int i = 4 * q + e;
        if (i < S) yr[i] = v[4 * j + e] * inv;
      }
    }
  }
}

// rows longer than the register cache (S > 8192): exact three-pass block kernel streaming from global
__global__ void __launch_bounds__(256) sms_stream_kernel(const float* __restrict__ s, const float* __restrict__ mask,
    float* __restrict__ y, int64_t Sq, int64_t S, float scale) {
  __shared__ float scratch[8];
  const int64_t row = blockIdx.x;
  const float* sr = s + row * S;
  const float* mr = mask + (row % Sq) * S;
  float* yr = y + row * S;
  float m = -INFINITY;
  for (int64_t i = threadIdx.x; i < S; i += 256) m = fmaxf(m, fmaf(sr[i], scale, mr[i]));
  m = bmax256(m, scratch);
  float sum = 0.0f;
  for (int64_t i = threadIdx.x; i < S; i += 256) sum += expf(fmaf(sr[i], scale, mr[i]) - m);
  const float inv = 1.0f / bsum256(sum, scratch);
  for (int64_t i = threadIdx.x; i < S; i += 256) yr[i] = expf(fmaf(sr[i], scale, mr[i]) - m) * inv;
}

template <int V>
static void warp_launch(const float* s, const float* mask, float* y, int64_t rows, int64_t Sq, int S, float scale, cudaStream_t st) {
  sms_warp_kernel<V><<<(unsigned)((rows + 7) / 8), 256, 0, st>>>(s, mask, y, rows, Sq, S, scale);
}
template <int V4>
static void block_launch(const float* s, const float* mask, float* y, int64_t rows, int64_t Sq, int S, float scale, bool vec, cudaStream_t st) {
  if (vec) sms_block_kernel<V4, true><<<(unsigned)rows, 256, 0, st>>>(s, mask, y, Sq, S, scale);
  else sms_block_kernel<V4, false><<<(unsigned)rows, 256, 0, st>>>(s, mask, y, Sq, S, scale);
}

torch::Tensor masked_softmax_regs_forward(torch::Tensor s, torch::Tensor mask, double scale) {
  TORCH_CHECK(s.is_cuda(), "s must be a CUDA tensor");
  TORCH_CHECK(s.scalar_type() == torch::kFloat32, "s must be float32");
  TORCH_CHECK(mask.is_cuda(), "mask must be a CUDA tensor");
  TORCH_CHECK(mask.scalar_type() == torch::kFloat32, "mask must be float32");
  TORCH_CHECK(s.dim() >= 2, "scores must be (..., seq, seq)");
  const int64_t S = s.size(-1);
  TORCH_CHECK(mask.dim() == 2 && mask.size(0) == s.size(-2) && mask.size(1) == S, "mask must be (seq, seq)");
  auto sc = s.contiguous(); auto mc = mask.contiguous();
  const int64_t Sq = s.size(-2);
  const int64_t rows = S == 0 ? 0 : sc.numel() / S;
  auto out = torch::empty_like(sc);
  if (rows == 0) return out;
  TORCH_CHECK(rows <= 2147483647LL, "too many rows for this grid");
  cudaStream_t st = at::cuda::getCurrentCUDAStream();
  const float* sp = sc.data_ptr<float>(); const float* mp = mc.data_ptr<float>(); float* yp = out.data_ptr<float>();
  const float f = (float)scale;
  const bool vec = (S % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(sp) | reinterpret_cast<uintptr_t>(mp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
  const int Si = (int)(S < 2147483647LL ? S : 2147483647LL);
  if (S <= 32) warp_launch<1>(sp, mp, yp, rows, Sq, Si, f, st);
  else if (S <= 64) warp_launch<2>(sp, mp, yp, rows, Sq, Si, f, st);
  else if (S <= 128) warp_launch<4>(sp, mp, yp, rows, Sq, Si, f, st);
  else if (S <= 256) warp_launch<8>(sp, mp, yp, rows, Sq, Si, f, st);
  else if (S <= 512) warp_launch<16>(sp, mp, yp, rows, Sq, Si, f, st);
  else if (S <= 1024) block_launch<1>(sp, mp, yp, rows, Sq, Si, f, vec, st);
  else if (S <= 2048) block_launch<2>(sp, mp, yp, rows, Sq, Si, f, vec, st);
  else if (S <= 4096) block_launch<4>(sp, mp, yp, rows, Sq, Si, f, vec, st);
  else if (S <= 8192) block_launch<8>(sp, mp, yp, rows, Sq, Si, f, vec, st);
  else sms_stream_kernel<<<(unsigned)rows, 256, 0, st>>>(sp, mp, yp, Sq, S, f);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor masked_softmax_regs_forward(torch::Tensor s, torch::Tensor mask, double scale);"

_ext = load_inline(name="t2c_masked_softmax_regs", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["masked_softmax_regs_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, scale=0.125):
        super().__init__()
        self.scale = scale

    def forward(self, scores, mask):
        return _ext.masked_softmax_regs_forward(scores, mask, float(self.scale))
