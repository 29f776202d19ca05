# strategy: block_row_char4 — one block per row: float4 loads, absmax by warp shuffles and a shared-memory combine, a second (L2-hot) float4 pass writing four int8 values per 32-bit store; scalar fallback for unaligned rows
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__device__ __forceinline__ float block_max(float v) {
  __shared__ float sh[32];
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  if (lane == 0) sh[wid] = v;
  __syncthreads();
  if (wid == 0) {
    float t = lane < nw ? sh[lane] : 0.f;
    for (int o = 16; o > 0; o >>= 1) t = fmaxf(t, __shfl_xor_sync(0xffffffffu, t, o));
    if (lane == 0) sh[0] = t;
  }
  __syncthreads();
  return sh[0];
}
__device__ __forceinline__ int q8(float x, float s) {
  return (int)fminf(fmaxf(rintf(x / s), -127.f), 127.f);
}

template <bool VEC>
__global__ void q8_block_kernel(const float* __restrict__ x, int8_t* __restrict__ q, float* __restrict__ scale,
                                int64_t cols) {
  const int64_t r = blockIdx.x;
  const float* xr = x + r * cols;
  int8_t* qr = q + r * cols;
  float amax = 0.f;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    for (int64_t i = threadIdx.x; i < cols / 4; i += blockDim.x) {
      const float4 v = x4[i];
      amax = fmaxf(amax, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
    }
  } else {
    for (int64_t i = threadIdx.x; i < cols; i += blockDim.x) amax = fmaxf(amax, fabsf(xr[i]));
  }
  amax = block_max(amax);
  const float s = fmaxf(amax, 1e-8f) * (float)(1.0 / 127.0);
  if (threadIdx.x == 0) scale[r] = s;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    uint32_t* q4 = reinterpret_cast<uint32_t*>(qr);
    for (int64_t i = threadIdx.x; i < cols / 4; i += blockDim.x) {
      const float4 v = x4[i];
      const uint32_t b0 = (uint32_t)(q8(v.x, s) & 0xff), b1 = (uint32_t)(q8(v.y, s) & 0xff);
      const uint32_t b2 = (uint32_t)(q8(v.z, s) & 0xff), b3 = (uint32_t)(q8(v.w, s) & 0xff);
      q4[i] = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);  // little-endian: element 4i in the low byte
    }
  } else {
    for (int64_t i = threadIdx.x; i < cols; i += blockDim.x) qr[i] = (int8_t)q8(xr[i], s);
  }
}

std::vector<torch::Tensor> q8_rows_block(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 2,
              "x must be a contiguous float32 CUDA tensor (rows, cols)");
  const int64_t rows = x.size(0), cols = x.size(1);
  auto q = torch::empty({rows, cols}, x.options().dtype(torch::kInt8));
  auto scale = torch::empty({rows}, x.options());
  if (rows == 0 || cols == 0) return {q, scale};
  TORCH_CHECK(rows <= 2147483647LL, "too many rows");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  // float4 reads need 16-byte aligned rows, the packed stores 4-byte aligned int8 rows: cols % 4 == 0 gives both
  const bool vec = cols % 4 == 0 && ((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) & 15) == 0) &&
                   ((reinterpret_cast<uintptr_t>(q.data_ptr<int8_t>()) & 3) == 0);
  const int threads = cols >= 8192 ? 512 : (cols >= 1024 ? 256 : 64);
  if (vec) q8_block_kernel<true><<<(unsigned)rows, threads, 0, stream>>>(x.data_ptr<float>(), q.data_ptr<int8_t>(),
                                                                         scale.data_ptr<float>(), cols);
  else q8_block_kernel<false><<<(unsigned)rows, threads, 0, stream>>>(x.data_ptr<float>(), q.data_ptr<int8_t>(),
                                                                      scale.data_ptr<float>(), cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {q, scale};
}
"""

cpp_src = "std::vector<torch::Tensor> q8_rows_block(torch::Tensor x);"

_ext = load_inline(name="t2c_quant_q8rows_block", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["q8_rows_block"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.q8_rows_block(x)
