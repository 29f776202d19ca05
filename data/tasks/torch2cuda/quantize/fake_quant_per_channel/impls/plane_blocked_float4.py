# strategy: plane_blocked_float4 — a 2-D grid of (chunk of the length, (batch, channel) row): each block loads its channel's scale, reciprocal and zero point once into registers (no per-element index arithmetic), then streams the row chunk with float4 loads and stores (scalar path when rows are not 16-byte aligned)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define THREADS 256
#define PER_THREAD 4   // float4s (or scalars) per thread per block

__device__ __forceinline__ float fq1(float x, float inv, float s, float z, float qmin, float qmax) {
  const float q = fminf(fmaxf(rintf(x * inv) + z, qmin), qmax);
  return (q - z) * s;
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS) fq_plane_kernel(const float* __restrict__ x, const float* __restrict__ scale,
    const int* __restrict__ zp, float* __restrict__ y, int64_t row0, int64_t channels, int64_t length, float qmin,
    float qmax) {
  const int64_t row = row0 + blockIdx.y;
  const int64_t c = row % channels;
  const float s = scale[c], inv = 1.0f / s, z = (float)zp[c];
  const float* xr = x + row * length;
  float* yr = y + row * length;
  if (VEC) {
    const int64_t n4 = length / 4;
    const int64_t base = (int64_t)blockIdx.x * THREADS * PER_THREAD + threadIdx.x;
#pragma unroll
    for (int k = 0; k < PER_THREAD; ++k) {
      const int64_t i = base + (int64_t)k * THREADS;
      if (i < n4) {
        const float4 v = reinterpret_cast<const float4*>(xr)[i];
        float4 o;
        o.x = fq1(v.x, inv, s, z, qmin, qmax);
        o.y = fq1(v.y, inv, s, z, qmin, qmax);
        o.z = fq1(v.z, inv, s, z, qmin, qmax);
        o.w = fq1(v.w, inv, s, z, qmin, qmax);
        reinterpret_cast<float4*>(yr)[i] = o;
      }
    }
  } else {
    const int64_t base = (int64_t)blockIdx.x * THREADS * PER_THREAD + threadIdx.x;
#pragma unroll
    for (int k = 0; k < PER_THREAD; ++k) {
      const int64_t i = base + (int64_t)k * THREADS;
      if (i < length) yr[i] = fq1(xr[i], inv, s, z, qmin, qmax);
    }
  }
}

torch::Tensor fq_channel_plane(torch::Tensor x, torch::Tensor scale, torch::Tensor zp, int64_t qmin, int64_t qmax) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 3,
              "x must be a contiguous float32 CUDA tensor (batch, channels, length)");
  TORCH_CHECK(scale.is_cuda() && scale.scalar_type() == torch::kFloat32 && scale.is_contiguous(), "bad scale");
  TORCH_CHECK(zp.is_cuda() && zp.scalar_type() == torch::kInt32 && zp.is_contiguous(), "bad zero_point");
  const int64_t channels = x.size(1), length = x.size(2), rows = x.size(0) * channels;
  TORCH_CHECK(scale.numel() == channels && zp.numel() == channels, "one scale and zero point per channel");
  auto y = torch::empty_like(x);
  if (x.numel() == 0) return y;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const bool vec = length % 4 == 0 && ((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) |
                                        reinterpret_cast<uintptr_t>(y.data_ptr<float>())) & 15) == 0;
  const int64_t units = vec ? length / 4 : length;
  const int64_t per_block = (int64_t)THREADS * PER_THREAD;
  const unsigned gx = (unsigned)((units + per_block - 1) / per_block);
  // grid.y is limited to 65535: launch the rows in slices
  for (int64_t r0 = 0; r0 < rows; r0 += 65535) {
    const int64_t nr = rows - r0 < 65535 ? rows - r0 : 65535;
    const dim3 grid(gx, (unsigned)nr);
    if (vec)
      fq_plane_kernel<true><<<grid, THREADS, 0, stream>>>(x.data_ptr<float>(), scale.data_ptr<float>(),
          zp.data_ptr<int>(), y.data_ptr<float>(), r0, channels, length, (float)qmin, (float)qmax);
    else
      fq_plane_kernel<false><<<grid, THREADS, 0, stream>>>(x.data_ptr<float>(), scale.data_ptr<float>(),
          zp.data_ptr<int>(), y.data_ptr<float>(), r0, channels, length, (float)qmin, (float)qmax);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  return y;
}
"""

cpp_src = "torch::Tensor fq_channel_plane(torch::Tensor x, torch::Tensor scale, torch::Tensor zp, int64_t qmin, int64_t qmax);"

_ext = load_inline(name="t2c_quant_fq_channel_plane", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["fq_channel_plane"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, quant_min, quant_max):
        super().__init__()
        self.quant_min, self.quant_max = int(quant_min), int(quant_max)
        # drawn as the reference draws them (the strict mode copies the reference's values over these)
        self.scale = nn.Parameter(torch.rand(channels) * 0.02 + 0.004)
        self.register_buffer("zero_point", torch.randint(-12, 13, (channels,), dtype=torch.int32))

    def forward(self, x):
        return _ext.fq_channel_plane(x, self.scale, self.zero_point, self.quant_min, self.quant_max)
