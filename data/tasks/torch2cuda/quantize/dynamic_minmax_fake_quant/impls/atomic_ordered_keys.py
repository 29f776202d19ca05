# strategy: atomic_ordered_keys — the floats' bit patterns mapped to order-preserving unsigned keys so that each block merges its (min, max) with one atomicMin/atomicMax (no partial buffer, any grid size); 4 independent scalar loads in flight per thread; the apply kernel decodes the two keys itself
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define THREADS 256
#define UNROLL 4

// order-preserving map float -> uint32 (negative floats reversed below the positive ones)
__device__ __forceinline__ unsigned int f2key(float f) {
  const unsigned int u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float key2f(unsigned int k) {
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}
__global__ void mm_init_kernel(unsigned int* keys) {
  if (threadIdx.x == 0) { keys[0] = 0xffffffffu; keys[1] = 0u; }  // min starts at the largest key, max at the smallest
}
__global__ void __launch_bounds__(THREADS) mm_reduce_kernel(const float* __restrict__ x, int64_t n,
                                                            unsigned int* __restrict__ keys) {
  float lo = INFINITY, hi = -INFINITY;
  const int64_t span = (int64_t)THREADS * UNROLL;
  for (int64_t base = (int64_t)blockIdx.x * span + threadIdx.x; base < n; base += (int64_t)gridDim.x * span) {
    float v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const int64_t i = base + (int64_t)u * THREADS;
      v[u] = i < n ? x[i] : x[base];
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) { lo = fminf(lo, v[u]); hi = fmaxf(hi, v[u]); }
  }
  for (int o = 16; o > 0; o >>= 1) {
    lo = fminf(lo, __shfl_xor_sync(0xffffffffu, lo, o));
    hi = fmaxf(hi, __shfl_xor_sync(0xffffffffu, hi, o));
  }
  __shared__ float slo[THREADS / 32], shi[THREADS / 32];
  if ((threadIdx.x & 31) == 0) { slo[threadIdx.x >> 5] = lo; shi[threadIdx.x >> 5] = hi; }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < THREADS / 32; ++w) { lo = fminf(lo, slo[w]); hi = fmaxf(hi, shi[w]); }
    if (lo <= hi) {  // a block that saw no element keeps +inf / -inf: skip it
      atomicMin(keys, f2key(lo));
      atomicMax(keys + 1, f2key(hi));
    }
  }
}
__global__ void __launch_bounds__(THREADS) mm_apply_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n,
    const unsigned int* __restrict__ keys, float* __restrict__ scale_out, float* __restrict__ zp_out) {
  const float l = fminf(key2f(keys[0]), 0.f), h = fmaxf(key2f(keys[1]), 0.f);
  const float scale = fmaxf((h - l) * (float)(1.0 / 255.0), 1e-8f);
  const float zp = fminf(fmaxf(-rintf(l / scale), 0.f), 255.f);
  const float inv = 1.0f / scale;
  if (blockIdx.x == 0 && threadIdx.x == 0) { scale_out[0] = scale; zp_out[0] = zp; }
  const int64_t span = (int64_t)THREADS * UNROLL;
  for (int64_t base = (int64_t)blockIdx.x * span + threadIdx.x; base < n; base += (int64_t)gridDim.x * span) {
    float v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const int64_t i = base + (int64_t)u * THREADS;
      v[u] = i < n ? x[i] : 0.f;
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const int64_t i = base + (int64_t)u * THREADS;
      if (i < n) {
        const float q = fminf(fmaxf(rintf(v[u] * inv) + zp, 0.f), 255.f);
        y[i] = (q - zp) * scale;
      }
    }
  }
}

std::vector<torch::Tensor> minmax_fq_atomic(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "x must be contiguous float32 CUDA");
  const int64_t n = x.numel();
  TORCH_CHECK(n > 0, "x must not be empty");
  auto y = torch::empty_like(x);
  auto scale = torch::empty({1}, x.options());
  auto zp = torch::empty({1}, x.options());
  auto keys = torch::empty({2}, x.options().dtype(torch::kInt32));
  unsigned int* kp = reinterpret_cast<unsigned int*>(keys.data_ptr<int>());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t span = (int64_t)THREADS * UNROLL;
  const int64_t want = (n + span - 1) / span;
  const unsigned blocks = (unsigned)(want < 132 * 12 ? want : 132 * 12);
  mm_init_kernel<<<1, 32, 0, stream>>>(kp);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  mm_reduce_kernel<<<blocks, THREADS, 0, stream>>>(x.data_ptr<float>(), n, kp);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  mm_apply_kernel<<<blocks, THREADS, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n, kp,
                                                  scale.data_ptr<float>(), zp.data_ptr<float>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {y, scale, zp};
}
"""

cpp_src = "std::vector<torch::Tensor> minmax_fq_atomic(torch::Tensor x);"

_ext = load_inline(name="t2c_quant_minmax_fq_atomic", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["minmax_fq_atomic"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.minmax_fq_atomic(x)
