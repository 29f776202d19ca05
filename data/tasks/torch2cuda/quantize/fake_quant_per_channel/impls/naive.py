# strategy: naive (weak) — one thread per (batch, channel) row walking its length sequentially: neighbouring threads are a whole row apart (uncoalesced), the reciprocal recomputed per element
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void fq_row_kernel(const float* x, const float* scale, const int* zp, float* y, int64_t rows,
                              int64_t channels, int64_t length, float qmin, float qmax) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int64_t c = r % channels;
  const float* xr = x + r * length;
  float* yr = y + r * length;
  for (int64_t l = 0; l < length; ++l) {
    const float s = scale[c];
    const float z = (float)zp[c];
    float q = rintf(xr[l] * (1.0f / s)) + z;
    q = fminf(fmaxf(q, qmin), qmax);
    yr[l] = (q - z) * s;
  }
}

torch::Tensor fq_channel_naive(torch::Tensor x, torch::Tensor scale, torch::Tensor zp, int64_t qmin, int64_t qmax) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 3,
              "x must be a contiguous float32 CUDA tensor (batch, channels, length)");
  TORCH_CHECK(scale.is_cuda() && scale.scalar_type() == torch::kFloat32 && scale.is_contiguous(), "bad scale");
  TORCH_CHECK(zp.is_cuda() && zp.scalar_type() == torch::kInt32 && zp.is_contiguous(), "bad zero_point");
  const int64_t channels = x.size(1), length = x.size(2), rows = x.size(0) * channels;
  TORCH_CHECK(scale.numel() == channels && zp.numel() == channels, "one scale and zero point per channel");
  auto y = torch::empty_like(x);
  if (x.numel() == 0) return y;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  fq_row_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(x.data_ptr<float>(), scale.data_ptr<float>(),
      zp.data_ptr<int>(), y.data_ptr<float>(), rows, channels, length, (float)qmin, (float)qmax);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor fq_channel_naive(torch::Tensor x, torch::Tensor scale, torch::Tensor zp, int64_t qmin, int64_t qmax);"

_ext = load_inline(name="t2c_quant_fq_channel_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["fq_channel_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, quant_min, quant_max):
        super().__init__()
        self.quant_min, self.quant_max = int(quant_min), int(quant_max)
        # drawn as the reference draws them (the strict mode copies the reference's values over these)
        self.scale = nn.Parameter(torch.rand(channels) * 0.02 + 0.004)
        self.register_buffer("zero_point", torch.randint(-12, 13, (channels,), dtype=torch.int32))

    def forward(self, x):
        return _ext.fq_channel_naive(x, self.scale, self.zero_point, self.quant_min, self.quant_max)
