# strategy: output_order — a 2-D grid over output rows x output columns so stores are fully coalesced; each warp's loads fall on r contiguous runs (one per sub-pixel column j), read through the read-only cache
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// blockIdx.y (grid-stride) walks output rows (n, c, oh); x walks output columns
__global__ void shuffle_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t out_rows,
                                    int H, int W, int r) {
  const int Wo = W * r, Ho = H * r;
  const int ow = blockIdx.x * blockDim.x + threadIdx.x;
  if (ow >= Wo) return;
  const int w = ow / r, j = ow - w * r;
  for (int64_t row = blockIdx.y; row < out_rows; row += gridDim.y) {
    const int64_t nc = row / Ho;           // n * C + c
    const int oh = (int)(row - nc * Ho);
    const int h = oh / r, i = oh - h * r;
    // input channel (n*C + c)*r*r + i*r + j of the flattened (N*C*r*r) planes
    const int64_t plane = nc * r * r + (int64_t)i * r + j;
    y[row * Wo + ow] = __ldg(x + (plane * H + h) * (int64_t)W + w);
  }
}

torch::Tensor pixel_shuffle_rows_forward(torch::Tensor x, int64_t r) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  TORCH_CHECK(r > 0 && x.size(1) % (r * r) == 0, "channels must be divisible by r*r");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1) / (r * r), H = xc.size(2), W = xc.size(3);
  auto out = torch::empty({N, C, H * r, W * r}, xc.options());
  if (out.numel() == 0) return out;
  const int64_t out_rows = N * C * H * r;
  const int64_t Wo = W * r;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = Wo >= 256 ? 256 : (Wo >= 128 ? 128 : 64);
  int64_t gy = out_rows < 65535 ? out_rows : 65535;
  dim3 grid((unsigned)((Wo + threads - 1) / threads), (unsigned)gy);
  shuffle_rows_kernel<<<grid, threads, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), out_rows,
                                                    (int)H, (int)W, (int)r);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor pixel_shuffle_rows_forward(torch::Tensor x, int64_t r);"

_ext = load_inline(name="t2c_pixel_shuffle_output_order", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["pixel_shuffle_rows_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, upscale):
        super().__init__()
        self.upscale = upscale

    def forward(self, x):
        return _ext.pixel_shuffle_rows_forward(x, int(self.upscale))
