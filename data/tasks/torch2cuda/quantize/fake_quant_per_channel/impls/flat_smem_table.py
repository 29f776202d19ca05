# strategy: flat_smem_table — one flat grid-stride pass over the whole tensor (long runs per thread, a fixed grid), the per-channel (reciprocal, scale, zero point) table staged once per block in shared memory, float4 accesses whenever a float4 cannot straddle two channels
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define MAX_SMEM_CHANNELS 2048

__device__ __forceinline__ float fq1(float x, float inv, float s, float z, float qmin, float qmax) {
  const float q = fminf(fmaxf(rintf(x * inv) + z, qmin), qmax);
  return (q - z) * s;
}

// VEC: n counts float4s and length % 4 == 0; else n counts elements
template <bool VEC>
__global__ void fq_flat_kernel(const float* __restrict__ x, const float* __restrict__ scale,
                               const int* __restrict__ zp, float* __restrict__ y, int64_t n, int64_t channels,
                               int64_t length, float qmin, float qmax) {
  __shared__ float3 tab[MAX_SMEM_CHANNELS];  // (inv, scale, zero point)
  const bool use_tab = channels <= MAX_SMEM_CHANNELS;
  if (use_tab) {
    for (int64_t c = threadIdx.x; c < channels; c += blockDim.x) {
      const float s = scale[c];
      tab[c] = make_float3(1.0f / s, s, (float)zp[c]);
    }
    __syncthreads();
  }
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
    const int64_t e = VEC ? 4 * k : k;
    const int64_t c = (e / length) % channels;
    float3 t;
    if (use_tab) t = tab[c];
    else { const float s = scale[c]; t = make_float3(1.0f / s, s, (float)zp[c]); }
    if (VEC) {
      const float4 v = reinterpret_cast<const float4*>(x)[k];
      float4 o;
      o.x = fq1(v.x, t.x, t.y, t.z, qmin, qmax);
      o.y = fq1(v.y, t.x, t.y, t.z, qmin, qmax);
      o.z = fq1(v.z, t.x, t.y, t.z, qmin, qmax);
      o.w = fq1(v.w, t.x, t.y, t.z, qmin, qmax);
      reinterpret_cast<float4*>(y)[k] = o;
    } else {
      y[k] = fq1(x[k], t.x, t.y, t.z, qmin, qmax);
    }
  }
}

torch::Tensor fq_channel_flat(torch::Tensor x, torch::Tensor scale, torch::Tensor zp, int64_t qmin, int64_t qmax) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 3,
              "x must be a contiguous float32 CUDA tensor (batch, channels, length)");
  TORCH_CHECK(scale.is_cuda() && scale.scalar_type() == torch::kFloat32 && scale.is_contiguous(), "bad scale");
  TORCH_CHECK(zp.is_cuda() && zp.scalar_type() == torch::kInt32 && zp.is_contiguous(), "bad zero_point");
  const int64_t channels = x.size(1), length = x.size(2);
  TORCH_CHECK(scale.numel() == channels && zp.numel() == channels, "one scale and zero point per channel");
  auto y = torch::empty_like(x);
  if (x.numel() == 0) return y;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const bool vec = length % 4 == 0 && ((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) |
                                        reinterpret_cast<uintptr_t>(y.data_ptr<float>())) & 15) == 0;
  const int64_t n = vec ? x.numel() / 4 : x.numel();
  const int threads = 256;
  const int64_t want = (n + threads - 1) / threads;
  const unsigned blocks = (unsigned)(want < 132 * 8 ? want : 132 * 8);
  if (vec)
    fq_flat_kernel<true><<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), scale.data_ptr<float>(),
        zp.data_ptr<int>(), y.data_ptr<float>(), n, channels, length, (float)qmin, (float)qmax);
  else
    fq_flat_kernel<false><<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), scale.data_ptr<float>(),
        zp.data_ptr<int>(), y.data_ptr<float>(), n, channels, length, (float)qmin, (float)qmax);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor fq_channel_flat(torch::Tensor x, torch::Tensor scale, torch::Tensor zp, int64_t qmin, int64_t qmax);"

_ext = load_inline(name="t2c_quant_fq_channel_flat", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["fq_channel_flat"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, quant_min, quant_max):
        super().__init__()
        self.quant_min, self.quant_max = int(quant_min), int(quant_max)
        # drawn as the reference draws them (the strict mode copies the reference's values over these)
        self.scale = nn.Parameter(torch.rand(channels) * 0.02 + 0.004)
        self.register_buffer("zero_point", torch.randint(-12, 13, (channels,), dtype=torch.int32))

    def forward(self, x):
        return _ext.fq_channel_flat(x, self.scale, self.zero_point, self.quant_min, self.quant_max)
