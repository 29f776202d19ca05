# strategy: bisect_smem — one block per row staged once in shared memory (rows up to 16384; longer rows are read in place from global memory), then 32 bit-by-bit bisection steps on the order-preserving key: each step counts the keys below a candidate with per-thread counters and one warp-shuffle block sum
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define STAGE_MAX 16384

__device__ __forceinline__ unsigned bkey(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float bkey_inv(unsigned k) {
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

// block sum of one int per thread (256 threads); every thread gets the total
__device__ __forceinline__ int block_count(int v, int* red) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
  __syncthreads();
  int t = 0;
#pragma unroll
  for (int w = 0; w < 8; ++w) t += red[w];
  __syncthreads();
  return t;
}

// answer = the t-th smallest key (t = (dim-1)/2). Invariant: prefix <= answer < prefix + 2^(b+1); the step for
// bit b sets it when fewer than t+1 keys lie below prefix | 2^b.
__global__ void __launch_bounds__(256) median_bisect_kernel(const float* __restrict__ x, float* __restrict__ out, int dim) {
  extern __shared__ unsigned keys[];
  __shared__ int red[8];
  const float* xr = x + (int64_t)blockIdx.x * dim;
  const bool staged = dim <= STAGE_MAX;
  if (staged) {
    for (int i = threadIdx.x; i < dim; i += 256) keys[i] = bkey(xr[i]);
    __syncthreads();
  }
  const int t = (dim - 1) / 2;
  unsigned prefix = 0;
  for (int b = 31; b >= 0; --b) {
    const unsigned cand = prefix | (1u << b);
    int c = 0;
    if (staged) {
      for (int i = threadIdx.x; i < dim; i += 256) c += keys[i] < cand;
    } else {
      for (int i = threadIdx.x; i < dim; i += 256) c += bkey(xr[i]) < cand;
    }
    const int below = block_count(c, red);
    if (below <= t) prefix = cand;
  }
  if (threadIdx.x == 0) out[blockIdx.x] = bkey_inv(prefix);
}

torch::Tensor median_bisect_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  TORCH_CHECK(x.dim() == 2 && x.size(1) > 0, "x must be (rows, dim) with dim > 0");
  TORCH_CHECK(x.size(1) < (1LL << 31), "row too long");
  auto xc = x.contiguous();
  const int64_t rows = xc.size(0), dim = xc.size(1);
  auto out = torch::empty({rows}, xc.options());
  if (rows == 0) return out;
  const size_t smem = dim <= STAGE_MAX ? (size_t)dim * sizeof(unsigned) : 0;
  if (smem > 48 * 1024)
    cudaFuncSetAttribute(median_bisect_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  median_bisect_kernel<<<(unsigned)rows, 256, smem, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(), out.data_ptr<float>(), (int)dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor median_bisect_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_median_lastdim_bisect_smem", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["median_bisect_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.median_bisect_forward(x)
