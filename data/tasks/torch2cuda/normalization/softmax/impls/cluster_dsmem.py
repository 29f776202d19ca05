# strategy: cluster_dsmem — a long row is split over a Hopper thread-block cluster of 8 CTAs that keep their slices in registers; the exact row max and then the sum of exponentials are exchanged through distributed shared memory, so x is read once and exp() is evaluated once per element; short rows use one warp per row in registers
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cooperative_groups.h>
#include <cstdint>
#include <cfloat>

namespace cg = cooperative_groups;

constexpr int kCluster = 8;    // CTAs per row
constexpr int kCta = 256;      // threads per CTA
constexpr int kWarpRows = 8;   // rows per block, short-row kernel

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
// CTA-wide max / sum, each with its own scratch (they run back to back); every thread gets the result
__device__ __forceinline__ float cta_max(float v) {
  __shared__ float red_max[kCta / 32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_max(v);
  if (lane == 0) red_max[wid] = v;
  __syncthreads();
  return warp_max(lane < kCta / 32 ? red_max[lane] : -INFINITY);
}
__device__ __forceinline__ float cta_sum(float v) {
  __shared__ float red_sum[kCta / 32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) red_sum[wid] = v;
  __syncthreads();
  return warp_sum(lane < kCta / 32 ? red_sum[lane] : 0.0f);
}
// cluster-wide combine: threads 0..7 push this CTA's value into slot [rank] of every CTA's `slots`, one
// cluster barrier (release/acquire), then every CTA folds the 8 slots in rank order (identical everywhere)
__device__ __forceinline__ void cluster_push(cg::cluster_group& cl, float v, float* slots) {
  const unsigned rank = cl.block_rank();
  if (threadIdx.x < kCluster) *cl.map_shared_rank(&slots[rank], threadIdx.x) = v;
  cl.sync();
}

template <int V>
__cluster_dims__(8, 1, 1) __global__ void __launch_bounds__(kCta) softmax_cluster_vec_kernel(
    const float* __restrict__ x, float* __restrict__ y, int dim) {
  __shared__ float slot_max[kCluster];
  __shared__ float slot_sum[kCluster];
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank();
  const int64_t r = blockIdx.x / kCluster;
  const float4* x4 = reinterpret_cast<const float4*>(x + r * dim);
  float4* y4 = reinterpret_cast<float4*>(y + r * dim);
  const int n4 = dim >> 2;
  const int per = (n4 + kCluster - 1) / kCluster;
  const int lo = rank * per;
  const int hi = min(lo + per, n4);
  float4 v[V];
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    v[k] = i < hi ? x4[i] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  }
  cl.sync();   // all CTAs of the cluster are running before any distributed shared memory write
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < V; ++k) m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
  cluster_push(cl, cta_max(m), slot_max);
  float mx = slot_max[0];
#pragma unroll
  for (int k = 1; k < kCluster; ++k) mx = fmaxf(mx, slot_max[k]);
  float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    if (i < hi) {
      v[k].x = expf(v[k].x - mx); v[k].y = expf(v[k].y - mx);
      v[k].z = expf(v[k].z - mx); v[k].w = expf(v[k].w - mx);
      s0 += v[k].x + v[k].y;
      s1 += v[k].z + v[k].w;
    }
  }
  cluster_push(cl, cta_sum(s0 + s1), slot_sum);
  float tot = 0.0f;
#pragma unroll
  for (int k = 0; k < kCluster; ++k) tot += slot_sum[k];
  const float inv = 1.0f / tot;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    if (i < hi) y4[i] = make_float4(v[k].x * inv, v[k].y * inv, v[k].z * inv, v[k].w * inv);
  }
}

template <int K>
__cluster_dims__(8, 1, 1) __global__ void __launch_bounds__(kCta) softmax_cluster_scalar_kernel(
    const float* __restrict__ x, float* __restrict__ y, int dim) {
  __shared__ float slot_max[kCluster];
  __shared__ float slot_sum[kCluster];
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank();
  const int64_t r = blockIdx.x / kCluster;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  const int per = (dim + kCluster - 1) / kCluster;
  const int lo = rank * per;
  const int hi = min(lo + per, dim);
  float v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    v[k] = i < hi ? xr[i] : -INFINITY;
  }
  cl.sync();
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < K; ++k) m = fmaxf(m, v[k]);
  cluster_push(cl, cta_max(m), slot_max);
  float mx = slot_max[0];
#pragma unroll
  for (int k = 1; k < kCluster; ++k) mx = fmaxf(mx, slot_max[k]);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    v[k] = i < hi ? expf(v[k] - mx) : 0.0f;
    s += v[k];
  }
  cluster_push(cl, cta_sum(s), slot_sum);
  float tot = 0.0f;
#pragma unroll
  for (int k = 0; k < kCluster; ++k) tot += slot_sum[k];
  const float inv = 1.0f / tot;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    if (i < hi) yr[i] = v[k] * inv;
  }
}

// short rows (dim <= 32 * K): one warp per row, the row and then its exponentials held in registers
template <int K>
__global__ void __launch_bounds__(kWarpRows * 32) softmax_warp_reg_kernel(const float* __restrict__ x, float* __restrict__ y,
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
    v[k] = i < dim ? expf(v[k] - m) : 0.0f;
    s += v[k];
  }
  const float inv = 1.0f / warp_sum(s);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lane + 32 * k;
    if (i < dim) yr[i] = v[k] * inv;
  }
}

// rows beyond the clusters' register budget: one block, max pass, sum pass, output pass
__global__ void __launch_bounds__(1024) softmax_stream_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t dim) {
  __shared__ float red_a[32], red_b[32];
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  float m = -INFINITY;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) m = fmaxf(m, xr[i]);
  m = warp_max(m);
  if (lane == 0) red_a[wid] = m;
  __syncthreads();
  m = warp_max(lane < nw ? red_a[lane] : -INFINITY);
  float s = 0.0f;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) s += expf(xr[i] - m);
  s = warp_sum(s);
  if (lane == 0) red_b[wid] = s;
  __syncthreads();
  const float inv = 1.0f / warp_sum(lane < nw ? red_b[lane] : 0.0f);
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) yr[i] = expf(xr[i] - m) * inv;
}

torch::Tensor softmax_cluster_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  auto xc = x.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  auto out = torch::empty_like(xc);
  if (dim == 0 || xc.numel() == 0) return out;
  const int64_t rows = xc.numel() / dim;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  if (dim <= 1024) {
    TORCH_CHECK(rows <= 0x3fffffffLL, "too many rows");
    const unsigned grid = (unsigned)((rows + kWarpRows - 1) / kWarpRows);
    const int threads = kWarpRows * 32, d = (int)dim;
    if (dim <= 32) softmax_warp_reg_kernel<1><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 64) softmax_warp_reg_kernel<2><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 128) softmax_warp_reg_kernel<4><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 256) softmax_warp_reg_kernel<8><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else if (dim <= 512) softmax_warp_reg_kernel<16><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    else softmax_warp_reg_kernel<32><<<grid, threads, 0, stream>>>(xp, yp, rows, d);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
  }
  const bool vec = (dim % 4 == 0) && (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
  const int64_t slice = vec ? (dim / 4 + kCluster - 1) / kCluster : (dim + kCluster - 1) / kCluster;
  const int64_t per_thread = (slice + kCta - 1) / kCta;
  const bool fits = vec ? per_thread <= 16 : per_thread <= 64;
  if (!fits || rows * kCluster > 0x7fffffffLL) {
    TORCH_CHECK(rows <= 0x7fffffffLL, "too many rows");
    softmax_stream_kernel<<<(unsigned)rows, 1024, 0, stream>>>(xp, yp, dim);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
  }
  const unsigned grid = (unsigned)(rows * kCluster);
  const int d = (int)dim;
  if (vec) {
    if (per_thread <= 1) softmax_cluster_vec_kernel<1><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 2) softmax_cluster_vec_kernel<2><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 4) softmax_cluster_vec_kernel<4><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 6) softmax_cluster_vec_kernel<6><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 8) softmax_cluster_vec_kernel<8><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 12) softmax_cluster_vec_kernel<12><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else softmax_cluster_vec_kernel<16><<<grid, kCta, 0, stream>>>(xp, yp, d);
  } else {
    if (per_thread <= 4) softmax_cluster_scalar_kernel<4><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 8) softmax_cluster_scalar_kernel<8><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 16) softmax_cluster_scalar_kernel<16><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 24) softmax_cluster_scalar_kernel<24><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 32) softmax_cluster_scalar_kernel<32><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else if (per_thread <= 48) softmax_cluster_scalar_kernel<48><<<grid, kCta, 0, stream>>>(xp, yp, d);
    else softmax_cluster_scalar_kernel<64><<<grid, kCta, 0, stream>>>(xp, yp, d);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor softmax_cluster_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_softmax_cluster_dsmem", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["softmax_cluster_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.softmax_cluster_forward(x)
