# strategy: partials_float4 — a fixed grid reduces float4 loads to one (min, max) partial per block (warp shuffles); the apply kernel's blocks each fold the partials in the same order into the quantization parameters (no extra launch, deterministic) and stream x with float4
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define THREADS 256
#define NB_MAX 1024

__device__ __forceinline__ void warp_minmax(float& lo, float& hi) {
  for (int o = 16; o > 0; o >>= 1) {
    lo = fminf(lo, __shfl_xor_sync(0xffffffffu, lo, o));
    hi = fmaxf(hi, __shfl_xor_sync(0xffffffffu, hi, o));
  }
}
// vec: x is read as n / 4 float4s plus a scalar tail
__global__ void __launch_bounds__(THREADS) mm_partial_kernel(const float* __restrict__ x, int64_t n, bool vec,
                                                             float2* __restrict__ part) {
  float lo = INFINITY, hi = -INFINITY;
  const int64_t tid = (int64_t)blockIdx.x * THREADS + threadIdx.x, stride = (int64_t)gridDim.x * THREADS;
  int64_t start = 0;
  if (vec) {
    const int64_t n4 = n / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    for (int64_t i = tid; i < n4; i += stride) {
      const float4 v = x4[i];
      lo = fminf(lo, fminf(fminf(v.x, v.y), fminf(v.z, v.w)));
      hi = fmaxf(hi, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
    start = n4 * 4;
  }
  for (int64_t i = start + tid; i < n; i += stride) { const float v = x[i]; lo = fminf(lo, v); hi = fmaxf(hi, v); }
  warp_minmax(lo, hi);
  __shared__ float slo[THREADS / 32], shi[THREADS / 32];
  if ((threadIdx.x & 31) == 0) { slo[threadIdx.x >> 5] = lo; shi[threadIdx.x >> 5] = hi; }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < THREADS / 32; ++w) { lo = fminf(lo, slo[w]); hi = fmaxf(hi, shi[w]); }
    part[blockIdx.x] = make_float2(lo, hi);
  }
}
__device__ __forceinline__ float fq(float v, float inv, float zp, float scale) {
  const float q = fminf(fmaxf(rintf(v * inv) + zp, 0.f), 255.f);
  return (q - zp) * scale;
}
__global__ void __launch_bounds__(THREADS) mm_apply_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n,
    bool vec, const float2* __restrict__ part, int nb, float* __restrict__ scale_out, float* __restrict__ zp_out) {
  __shared__ float s_par[3];
  if (threadIdx.x < 32) {
    float lo = INFINITY, hi = -INFINITY;
    for (int k = threadIdx.x; k < nb; k += 32) { const float2 p = part[k]; lo = fminf(lo, p.x); hi = fmaxf(hi, p.y); }
    warp_minmax(lo, hi);
    if (threadIdx.x == 0) {
      const float l = fminf(lo, 0.f), h = fmaxf(hi, 0.f);
      const float scale = fmaxf((h - l) * (float)(1.0 / 255.0), 1e-8f);
      const float zp = fminf(fmaxf(-rintf(l / scale), 0.f), 255.f);
      s_par[0] = scale; s_par[1] = zp; s_par[2] = 1.0f / scale;
      if (blockIdx.x == 0) { scale_out[0] = scale; zp_out[0] = zp; }
    }
  }
  __syncthreads();
  const float scale = s_par[0], zp = s_par[1], inv = s_par[2];
  const int64_t tid = (int64_t)blockIdx.x * THREADS + threadIdx.x, stride = (int64_t)gridDim.x * THREADS;
  int64_t start = 0;
  if (vec) {
    const int64_t n4 = n / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    for (int64_t i = tid; i < n4; i += stride) {
      const float4 v = x4[i];
      y4[i] = make_float4(fq(v.x, inv, zp, scale), fq(v.y, inv, zp, scale), fq(v.z, inv, zp, scale),
                          fq(v.w, inv, zp, scale));
    }
    start = n4 * 4;
  }
  for (int64_t i = start + tid; i < n; i += stride) y[i] = fq(x[i], inv, zp, scale);
}

std::vector<torch::Tensor> minmax_fq_partials(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "x must be contiguous float32 CUDA");
  const int64_t n = x.numel();
  TORCH_CHECK(n > 0, "x must not be empty");
  auto y = torch::empty_like(x);
  auto scale = torch::empty({1}, x.options());
  auto zp = torch::empty({1}, x.options());
  const bool vec = ((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) | reinterpret_cast<uintptr_t>(y.data_ptr<float>()))
                    & 15) == 0;
  const int64_t units = vec ? (n / 4 > 0 ? n / 4 : 1) : n;
  const int64_t want = (units + THREADS - 1) / THREADS;
  const int nb = (int)(want < NB_MAX ? want : NB_MAX);
  auto part = torch::empty({2 * (int64_t)nb}, x.options());
  float2* pp = reinterpret_cast<float2*>(part.data_ptr<float>());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  mm_partial_kernel<<<nb, THREADS, 0, stream>>>(x.data_ptr<float>(), n, vec, pp);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const unsigned ab = (unsigned)(want < 132 * 8 ? want : 132 * 8);
  mm_apply_kernel<<<ab, THREADS, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n, vec, pp, nb,
                                              scale.data_ptr<float>(), zp.data_ptr<float>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {y, scale, zp};
}
"""

cpp_src = "std::vector<torch::Tensor> minmax_fq_partials(torch::Tensor x);"

_ext = load_inline(name="t2c_quant_minmax_fq_partials", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["minmax_fq_partials"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.minmax_fq_partials(x)
