# strategy: smem_tile — a block stages the r*r sub-pixel planes of one input row segment (32 columns, coalesced row loads) in padded shared memory, then writes the r output rows it produces as contiguous, coalesced runs of 32*r floats
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int TW = 32;        // input columns per block
constexpr int MAXR = 8;       // r*r <= 64 staged planes
constexpr int NT = 256;

__global__ void __launch_bounds__(NT) shuffle_tile_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                          int64_t NC, int H, int W, int r) {
  __shared__ float tile[MAXR * MAXR][TW + 1];
  const int rr = r * r;
  const int w0 = blockIdx.x * TW;
  const int h = blockIdx.y;
  const int tw = (W - w0) < TW ? (W - w0) : TW;     // valid columns in this segment
  const int Ho = H * r, Wo = W * r;
  for (int64_t nc = blockIdx.z; nc < NC; nc += gridDim.z) {
    // load: rr planes x tw columns; lanes of a warp read one contiguous row segment
    for (int e = threadIdx.x; e < rr * TW; e += NT) {
      const int s = e / TW, q = e - s * TW;
      if (q < tw) tile[s][q] = __ldg(x + ((nc * rr + s) * H + h) * (int64_t)W + w0 + q);
    }
    __syncthreads();
    // store: output rows h*r + i, columns w0*r .. w0*r + tw*r - 1 (contiguous)
    const int run = tw * r;
    for (int e = threadIdx.x; e < r * run; e += NT) {
      const int i = e / run, o = e - i * run;
      const int q = o / r, j = o - q * r;
      y[(nc * Ho + (int64_t)h * r + i) * Wo + (int64_t)w0 * r + o] = tile[i * r + j][q];
    }
    __syncthreads();
  }
}

torch::Tensor pixel_shuffle_tile_forward(torch::Tensor x, int64_t r) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  TORCH_CHECK(r > 0 && r <= MAXR, "upscale factor must be in [1, 8]");
  TORCH_CHECK(x.size(1) % (r * r) == 0, "channels must be divisible by r*r");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1) / (r * r), H = xc.size(2), W = xc.size(3);
  auto out = torch::empty({N, C, H * r, W * r}, xc.options());
  if (out.numel() == 0) return out;
  TORCH_CHECK(H <= 65535, "height above the grid limit");
  const int64_t NC = N * C;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  dim3 grid((unsigned)((W + TW - 1) / TW), (unsigned)H, (unsigned)(NC < 65535 ? NC : 65535));
  shuffle_tile_kernel<<<grid, NT, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), NC, (int)H, (int)W, (int)r);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor pixel_shuffle_tile_forward(torch::Tensor x, int64_t r);"

_ext = load_inline(name="t2c_pixel_shuffle_smem_tile", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["pixel_shuffle_tile_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, upscale):
        super().__init__()
        self.upscale = upscale

    def forward(self, x):
        return _ext.pixel_shuffle_tile_forward(x, int(self.upscale))
