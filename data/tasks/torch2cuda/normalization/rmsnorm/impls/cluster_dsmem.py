# strategy: cluster_dsmem — each long row is split across a Hopper thread-block cluster of 8 CTAs, every CTA keeps its slice in registers (float4 when aligned) and the partial sums of squares meet through distributed shared memory, so x is read once with small CTAs; short rows use one warp per row in registers
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

constexpr int kCluster = 8;    // CTAs per row (the portable cluster size)
constexpr int kCta = 256;      // threads per CTA
constexpr int kWarpRows = 8;   // rows per block of the short-row kernel

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
// sum over one kCta-thread CTA; every thread gets the result
__device__ __forceinline__ float cta_sum(float v) {
  __shared__ float red[kCta / 32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) red[wid] = v;
  __syncthreads();
  float t = lane < kCta / 32 ? red[lane] : 0.0f;
  return warp_sum(t);
}
// the row's sum of squares across the cluster: threads 0..7 of each CTA write the CTA's partial into slot
// [rank] of every CTA's `parts`, one cluster barrier, then each CTA adds the 8 slots in rank order (the same
// order everywhere, so all CTAs of a row scale by the same bits)
__device__ __forceinline__ float cluster_sum(cg::cluster_group& cl, float partial, float* parts) {
  const unsigned rank = cl.block_rank();
  if (threadIdx.x < kCluster) *cl.map_shared_rank(&parts[rank], threadIdx.x) = partial;
  cl.sync();
  float t = 0.0f;
#pragma unroll
  for (int k = 0; k < kCluster; ++k) t += parts[k];
  return t;
}

// aligned rows: CTA `rank` of the cluster owns float4 [rank*per, rank*per + per) of its row, V float4 per thread
template <int V>
__cluster_dims__(8, 1, 1) __global__ void __launch_bounds__(kCta) rms_cluster_vec_kernel(
    const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int dim, float eps) {
  __shared__ float parts[kCluster];
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank();
  const int64_t r = blockIdx.x / kCluster;
  const float4* x4 = reinterpret_cast<const float4*>(x + r * dim);
  float4* y4 = reinterpret_cast<float4*>(y + r * dim);
  const float4* w4 = reinterpret_cast<const float4*>(w);
  const int n4 = dim >> 2;
  const int per = (n4 + kCluster - 1) / kCluster;
  const int lo = rank * per;
  const int hi = min(lo + per, n4);
  float4 v[V];
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    v[k] = i < hi ? x4[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  // every CTA of the cluster has started before any writes another's shared memory (the loads are in flight)
  cl.sync();
  float q0 = 0.0f, q1 = 0.0f;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    q0 = fmaf(v[k].x, v[k].x, q0); q1 = fmaf(v[k].y, v[k].y, q1);
    q0 = fmaf(v[k].z, v[k].z, q0); q1 = fmaf(v[k].w, v[k].w, q1);
  }
  const float tot = cluster_sum(cl, cta_sum(q0 + q1), parts);
  const float inv = rsqrtf(tot / (float)dim + eps);
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    if (i < hi) {
      const float4 ww = __ldg(&w4[i]);
      y4[i] = make_float4(v[k].x * inv * ww.x, v[k].y * inv * ww.y, v[k].z * inv * ww.z, v[k].w * inv * ww.w);
    }
  }
}

// rows without float4 alignment: the same split in scalars, K per thread
template <int K>
__cluster_dims__(8, 1, 1) __global__ void __launch_bounds__(kCta) rms_cluster_scalar_kernel(
    const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int dim, float eps) {
  __shared__ float parts[kCluster];
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
    v[k] = i < hi ? xr[i] : 0.0f;
  }
  cl.sync();
  float q = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) q = fmaf(v[k], v[k], q);
  const float tot = cluster_sum(cl, cta_sum(q), parts);
  const float inv = rsqrtf(tot / (float)dim + eps);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lo + threadIdx.x + kCta * k;
    if (i < hi) yr[i] = v[k] * inv * __ldg(&w[i]);
  }
}

// short rows (dim <= 32 * K): one warp per row, K values per lane in registers
template <int K>
__global__ void __launch_bounds__(kWarpRows * 32) rms_warp_reg_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                                       float* __restrict__ y, int64_t rows, int dim, float eps) {
  const int64_t r = (int64_t)blockIdx.x * kWarpRows + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;   // whole warps leave together
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float v[K];
  float q = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lane + 32 * k;
    v[k] = i < dim ? xr[i] : 0.0f;
    q = fmaf(v[k], v[k], q);
  }
  const float inv = rsqrtf(warp_sum(q) / (float)dim + eps);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int i = lane + 32 * k;
    if (i < dim) yr[i] = v[k] * inv * __ldg(&w[i]);
  }
}

// rows beyond the clusters' register budget: one block streams the row twice
__global__ void __launch_bounds__(1024) rms_stream_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                          float* __restrict__ y, int64_t dim, float eps) {
  __shared__ float red[32];
  const int64_t r = blockIdx.x;
  const float* xr = x + r * dim;
  float* yr = y + r * dim;
  float q = 0.0f;
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) { const float t = xr[i]; q = fmaf(t, t, q); }
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  q = warp_sum(q);
  if (lane == 0) red[wid] = q;
  __syncthreads();
  const float tot = warp_sum(lane < (int)(blockDim.x >> 5) ? red[lane] : 0.0f);
  const float inv = rsqrtf(tot / (float)dim + eps);
  for (int64_t i = threadIdx.x; i < dim; i += blockDim.x) yr[i] = xr[i] * inv * w[i];
}

torch::Tensor rmsnorm_cluster_forward(torch::Tensor x, torch::Tensor w, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  TORCH_CHECK(xc.dim() >= 1, "x must have a last dim");
  const int64_t dim = xc.size(-1);
  TORCH_CHECK(wc.numel() == dim, "weight size mismatch");
  auto out = torch::empty_like(xc);
  if (dim == 0 || xc.numel() == 0) return out;
  const int64_t rows = xc.numel() / dim;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* xp = xc.data_ptr<float>();
  const float* wp = wc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  const float e = (float)eps;
  if (dim <= 1024) {
    TORCH_CHECK(rows <= 0x3fffffffLL, "too many rows");
    const unsigned grid = (unsigned)((rows + kWarpRows - 1) / kWarpRows);
    const int threads = kWarpRows * 32, d = (int)dim;
    if (dim <= 32) rms_warp_reg_kernel<1><<<grid, threads, 0, stream>>>(xp, wp, yp, rows, d, e);
    else if (dim <= 64) rms_warp_reg_kernel<2><<<grid, threads, 0, stream>>>(xp, wp, yp, rows, d, e);
    else if (dim <= 128) rms_warp_reg_kernel<4><<<grid, threads, 0, stream>>>(xp, wp, yp, rows, d, e);
    else if (dim <= 256) rms_warp_reg_kernel<8><<<grid, threads, 0, stream>>>(xp, wp, yp, rows, d, e);
    else if (dim <= 512) rms_warp_reg_kernel<16><<<grid, threads, 0, stream>>>(xp, wp, yp, rows, d, e);
    else rms_warp_reg_kernel<32><<<grid, threads, 0, stream>>>(xp, wp, yp, rows, d, e);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
  }
  const bool vec = (dim % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp) | reinterpret_cast<uintptr_t>(wp)) & 15) == 0);
  const int64_t slice = vec ? (dim / 4 + kCluster - 1) / kCluster : (dim + kCluster - 1) / kCluster;  // per CTA
  const int64_t per_thread = (slice + kCta - 1) / kCta;   // float4 (vec) or floats per thread
  const bool fits = vec ? per_thread <= 16 : per_thread <= 64;
  if (!fits || rows * kCluster > 0x7fffffffLL) {
    TORCH_CHECK(rows <= 0x7fffffffLL, "too many rows");
    rms_stream_kernel<<<(unsigned)rows, 1024, 0, stream>>>(xp, wp, yp, dim, e);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
  }
  const unsigned grid = (unsigned)(rows * kCluster);   // a multiple of the cluster size
  const int d = (int)dim;
  if (vec) {
    if (per_thread <= 1) rms_cluster_vec_kernel<1><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 2) rms_cluster_vec_kernel<2><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 4) rms_cluster_vec_kernel<4><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 6) rms_cluster_vec_kernel<6><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 8) rms_cluster_vec_kernel<8><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 12) rms_cluster_vec_kernel<12><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else rms_cluster_vec_kernel<16><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
  } else {
    if (per_thread <= 4) rms_cluster_scalar_kernel<4><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 8) rms_cluster_scalar_kernel<8><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 16) rms_cluster_scalar_kernel<16><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 24) rms_cluster_scalar_kernel<24><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 32) rms_cluster_scalar_kernel<32><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else if (per_thread <= 48) rms_cluster_scalar_kernel<48><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
    else rms_cluster_scalar_kernel<64><<<grid, kCta, 0, stream>>>(xp, wp, yp, d, e);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor rmsnorm_cluster_forward(torch::Tensor x, torch::Tensor w, double eps);"

_ext = load_inline(name="t2c_rmsnorm_cluster_dsmem", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rmsnorm_cluster_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return _ext.rmsnorm_cluster_forward(x, self.weight, float(self.eps))
