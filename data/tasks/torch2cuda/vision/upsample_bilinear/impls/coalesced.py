# strategy: coalesced — one thread per output element in memory order over a 2-D grid (x = columns, y = output rows of every plane), grid-stride over rows; neighbouring threads read neighbouring source pixels
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ void src_coord(int o, float s, int n, int& i0, int& i1, float& l) {
  // the source coordinate as one fused multiply-add, as PyTorch computes it
  float f = fmaf(s, (float)o + 0.5f, -0.5f);
  f = f < 0.f ? 0.f : f;
  i0 = (int)f;
  i1 = i0 + ((i0 < n - 1) ? 1 : 0);
  l = f - (float)i0;
}

__global__ void bilinear_coalesced_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t rows,
                                          int H, int W, int Ho, int Wo, float sh, float sw) {
  const int ow = blockIdx.x * blockDim.x + threadIdx.x;
  if (ow >= Wo) return;
  int x0, x1; float lx;
  src_coord(ow, sw, W, x0, x1, lx);
  for (int64_t r = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += (int64_t)gridDim.y * blockDim.y) {
    const int64_t plane = r / Ho;
    const int oh = (int)(r - plane * Ho);
    int y0, y1; float ly;
    src_coord(oh, sh, H, y0, y1, ly);
    const float* p0 = x + (plane * H + y0) * (int64_t)W;
    const float* p1 = x + (plane * H + y1) * (int64_t)W;
    const float top = (1.f - lx) * __ldg(p0 + x0) + lx * __ldg(p0 + x1);
    const float bot = (1.f - lx) * __ldg(p1 + x0) + lx * __ldg(p1 + x1);
    y[r * Wo + ow] = (1.f - ly) * top + ly * bot;
  }
}

torch::Tensor bilinear_coalesced_forward(torch::Tensor x, int64_t out_h, int64_t out_w) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  TORCH_CHECK(out_h > 0 && out_w > 0, "output size must be positive");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1);
  const int H = (int)xc.size(2), W = (int)xc.size(3);
  auto out = torch::empty({N, C, out_h, out_w}, xc.options());
  const int64_t rows = N * C * out_h;
  if (rows == 0 || H == 0 || W == 0) return out;
  const float sh = (float)H / (float)out_h, sw = (float)W / (float)out_w;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int bx = out_w >= 128 ? 128 : (out_w >= 64 ? 64 : 32);
  const int by = 256 / bx;
  int64_t gy = (rows + by - 1) / by;
  if (gy > 65535) gy = 65535;
  dim3 grid((unsigned)((out_w + bx - 1) / bx), (unsigned)gy);
  bilinear_coalesced_kernel<<<grid, dim3(bx, by), 0, stream>>>(
      xc.data_ptr<float>(), out.data_ptr<float>(), rows, H, W, (int)out_h, (int)out_w, sh, sw);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor bilinear_coalesced_forward(torch::Tensor x, int64_t out_h, int64_t out_w);"

_ext = load_inline(name="t2c_upsample_bilinear_coalesced", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["bilinear_coalesced_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, out_h, out_w):
        super().__init__()
        self.out_h = out_h
        self.out_w = out_w

    def forward(self, x):
        return _ext.bilinear_coalesced_forward(x, int(self.out_h), int(self.out_w))
