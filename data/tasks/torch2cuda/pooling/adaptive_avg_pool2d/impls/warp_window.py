# strategy: warp_window — one warp per output: the lanes stride over the flattened window (consecutive lanes read consecutive columns), a fixed-order butterfly shuffle reduction sums it
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void adavg_warp_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t total, int H, int W, int Ho,
                                  int Wo) {
  const int lane = threadIdx.x & 31;
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int64_t nwarps = ((int64_t)gridDim.x * blockDim.x) >> 5;
  for (int64_t o = warp; o < total; o += nwarps) {
    const int ow = (int)(o % Wo), oh = (int)((o / Wo) % Ho);
    const int64_t plane = o / ((int64_t)Ho * Wo);
    const int hs = (int)(((int64_t)oh * H) / Ho), he = (int)((((int64_t)oh + 1) * H + Ho - 1) / Ho);
    const int ws = (int)(((int64_t)ow * W) / Wo), we = (int)((((int64_t)ow + 1) * W + Wo - 1) / Wo);
    const int kh = he - hs, kw = we - ws;
    const float* xp = x + plane * (int64_t)H * W + (int64_t)hs * W + ws;
    float a = 0.0f;
    for (int e = lane; e < kh * kw; e += 32) {
      const int r = e / kw, c = e - r * kw;
      a += __ldg(xp + (int64_t)r * W + c);
    }
    for (int off = 16; off > 0; off >>= 1) a += __shfl_xor_sync(0xffffffffu, a, off);
    if (lane == 0) y[o] = a / (float)kh / (float)kw;
  }
}

torch::Tensor adavg_warp_forward(torch::Tensor x, int64_t Ho, int64_t Wo) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 4, "x must be a CUDA float32 NCHW tensor");
  TORCH_CHECK(Ho > 0 && Wo > 0, "output size must be positive");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
  TORCH_CHECK(H > 0 && W > 0, "empty input plane");
  auto out = torch::empty({N, C, Ho, Wo}, xc.options());
  const int64_t total = N * C * Ho * Wo;
  if (total == 0) return out;
  int64_t blocks = (total + 7) / 8;   // 8 warps of 256 threads, one output each per pass
  if (blocks > 1048576) blocks = 1048576;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  adavg_warp_kernel<<<(unsigned)blocks, 256, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), total, (int)H, (int)W,
                                                          (int)Ho, (int)Wo);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor adavg_warp_forward(torch::Tensor x, int64_t Ho, int64_t Wo);"

_ext = load_inline(name="t2c_adaptive_avgpool_warp", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["adavg_warp_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, out_h, out_w):
        super().__init__()
        self.oh, self.ow = int(out_h), int(out_w)

    def forward(self, x):
        return _ext.adavg_warp_forward(x, self.oh, self.ow)
