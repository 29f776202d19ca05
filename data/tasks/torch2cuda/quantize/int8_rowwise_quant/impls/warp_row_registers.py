# strategy: warp_row_registers — one warp per row with no block barriers: rows up to 1024 values are held in registers (one HBM read, shuffle absmax, quantize from registers); longer rows stream twice through the warp
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define WARPS 8

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ int8_t q8(float x, float s) {
  return (int8_t)fminf(fmaxf(rintf(x / s), -127.f), 127.f);
}

// K values per lane in registers: rows of up to 32 * K columns
template <int K>
__global__ void __launch_bounds__(WARPS * 32) q8_warp_reg_kernel(const float* __restrict__ x, int8_t* __restrict__ q,
                                                                 float* __restrict__ scale, int64_t rows, int64_t cols) {
  const int64_t r = (int64_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float v[K];
  float amax = 0.f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int64_t j = lane + 32 * k;
    v[k] = j < cols ? xr[j] : 0.f;
    amax = fmaxf(amax, fabsf(v[k]));
  }
  amax = warp_max(amax);
  const float s = fmaxf(amax, 1e-8f) * (float)(1.0 / 127.0);
  if (lane == 0) scale[r] = s;
  int8_t* qr = q + r * cols;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int64_t j = lane + 32 * k;
    if (j < cols) qr[j] = q8(v[k], s);
  }
}
// rows longer than the register cache: absmax pass, then a quantization pass re-reading the row
__global__ void __launch_bounds__(WARPS * 32) q8_warp_stream_kernel(const float* __restrict__ x, int8_t* __restrict__ q,
                                                                    float* __restrict__ scale, int64_t rows,
                                                                    int64_t cols) {
  const int64_t r = (int64_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float a0 = 0.f, a1 = 0.f;
  int64_t j = lane;
  for (; j + 32 < cols; j += 64) { a0 = fmaxf(a0, fabsf(xr[j])); a1 = fmaxf(a1, fabsf(xr[j + 32])); }
  if (j < cols) a0 = fmaxf(a0, fabsf(xr[j]));
  const float amax = warp_max(fmaxf(a0, a1));
  const float s = fmaxf(amax, 1e-8f) * (float)(1.0 / 127.0);
  if (lane == 0) scale[r] = s;
  int8_t* qr = q + r * cols;
  for (int64_t i = lane; i < cols; i += 32) qr[i] = q8(xr[i], s);
}

std::vector<torch::Tensor> q8_rows_warp(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 2,
              "x must be a contiguous float32 CUDA tensor (rows, cols)");
  const int64_t rows = x.size(0), cols = x.size(1);
  auto q = torch::empty({rows, cols}, x.options().dtype(torch::kInt8));
  auto scale = torch::empty({rows}, x.options());
  if (rows == 0 || cols == 0) return {q, scale};
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const unsigned blocks = (unsigned)((rows + WARPS - 1) / WARPS);
  const float* xp = x.data_ptr<float>();
  int8_t* qp = q.data_ptr<int8_t>();
  float* sp = scale.data_ptr<float>();
  if (cols <= 32 * 1) q8_warp_reg_kernel<1><<<blocks, WARPS * 32, 0, stream>>>(xp, qp, sp, rows, cols);
  else if (cols <= 32 * 4) q8_warp_reg_kernel<4><<<blocks, WARPS * 32, 0, stream>>>(xp, qp, sp, rows, cols);
  else if (cols <= 32 * 8) q8_warp_reg_kernel<8><<<blocks, WARPS * 32, 0, stream>>>(xp, qp, sp, rows, cols);
  else if (cols <= 32 * 16) q8_warp_reg_kernel<16><<<blocks, WARPS * 32, 0, stream>>>(xp, qp, sp, rows, cols);
  else if (cols <= 32 * 32) q8_warp_reg_kernel<32><<<blocks, WARPS * 32, 0, stream>>>(xp, qp, sp, rows, cols);
  else q8_warp_stream_kernel<<<blocks, WARPS * 32, 0, stream>>>(xp, qp, sp, rows, cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {q, scale};
}
"""

cpp_src = "std::vector<torch::Tensor> q8_rows_warp(torch::Tensor x);"

_ext = load_inline(name="t2c_quant_q8rows_warp", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["q8_rows_warp"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.q8_rows_warp(x)
