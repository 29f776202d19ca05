# strategy: fused_online — one block per row, scale+mask fused into a single online max/sum pass with block reductions, then one output pass
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

// one block per row: single read pass with per-thread online (max, sum) of scale*x + mask, merged by
// block reductions, then one output pass; mask rows are shared by all heads and mostly hit in L2
__device__ __forceinline__ void online_add(float& m, float& s, float v) {
  if (v > m) { s = s * expf(m - v) + 1.0f; m = v; } else { s += expf(v - m); }
}
__global__ void ms_block_kernel(const float* __restrict__ s, const float* __restrict__ mask, float* __restrict__ y,
                                int64_t Sq, int64_t S, float scale) {
  const int64_t r = blockIdx.x;
  const float* sr = s + r * S;
  const float* mr = mask + (r % Sq) * S;
  float* yr = y + r * S;
  float m = -INFINITY, sum = 0.0f;
  for (int64_t i = threadIdx.x; i < S; i += blockDim.x) online_add(m, sum, fmaf(sr[i], scale, __ldg(mr + i)));
  const float bm = block_max(m);
  const float part = (m == -INFINITY) ? 0.0f : sum * expf(m - bm);
  const float inv = 1.0f / block_sum(part);
  for (int64_t i = threadIdx.x; i < S; i += blockDim.x) yr[i] = expf(fmaf(sr[i], scale, __ldg(mr + i)) - bm) * inv;
}
torch::Tensor masked_softmax_fused_forward(torch::Tensor s, torch::Tensor mask, double scale) {
  TORCH_CHECK(s.is_cuda(), "s must be a CUDA tensor");
  TORCH_CHECK(s.scalar_type() == torch::kFloat32, "s must be float32");
  TORCH_CHECK(mask.is_cuda(), "mask must be a CUDA tensor");
  TORCH_CHECK(mask.scalar_type() == torch::kFloat32, "mask must be float32");
  const int64_t S = s.size(-1);
  TORCH_CHECK(mask.dim() == 2 && mask.size(0) == s.size(-2) && mask.size(1) == S, "mask must be (seq, seq)");
  auto sc = s.contiguous(); auto mc = mask.contiguous();
  const int64_t Sq = s.size(-2);
  const int64_t rows = S == 0 ? 0 : sc.numel() / S;
  auto out = torch::empty_like(sc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = S >= 2048 ? 512 : (S >= 256 ? 256 : 64);
  ms_block_kernel<<<(unsigned)rows, threads, 0, stream>>>(sc.data_ptr<float>(), mc.data_ptr<float>(), out.data_ptr<float>(), Sq, S, (float)scale);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor masked_softmax_fused_forward(torch::Tensor s, torch::Tensor mask, double scale);"

_ext = load_inline(name="t2c_masked_softmax_fused", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["masked_softmax_fused_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, scale=0.125):
        super().__init__()
        self.scale = scale

    def forward(self, scores, mask):
        return _ext.masked_softmax_fused_forward(scores, mask, float(self.scale))
