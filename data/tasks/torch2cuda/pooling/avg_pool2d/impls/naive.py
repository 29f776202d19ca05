# strategy: naive (weak) — one thread per output element, summing its window straight from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// PyTorch's pooling output length (floor or ceil mode; a ceil-mode window must start inside the
// image or the left padding)
static int64_t pool_out_len(int64_t n, int64_t k, int64_t s, int64_t p, bool ceil) {
  int64_t o = (n + 2 * p - k + (ceil ? s - 1 : 0)) / s + 1;
  if (ceil && (o - 1) * s >= n + p) --o;
  return o;
}

__global__ void avgpool_naive_kernel(const float* x, float* y, int64_t total, int H, int W, int Ho, int Wo,
                                     int k, int s, int p, bool incl) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int ow = (int)(idx % Wo), oh = (int)((idx / Wo) % Ho);
  const int64_t plane = idx / ((int64_t)Ho * Wo);
  int hs = oh * s - p, ws = ow * s - p;
  int he = min(hs + k, H + p), we = min(ws + k, W + p);
  const int full = (he - hs) * (we - ws);
  hs = max(hs, 0); ws = max(ws, 0); he = min(he, H); we = min(we, W);
  const float* xp = x + plane * H * W;
  float acc = 0.0f;
  for (int ih = hs; ih < he; ++ih)
    for (int iw = ws; iw < we; ++iw) acc += xp[(int64_t)ih * W + iw];
  const int div = incl ? full : (he - hs) * (we - ws);
  y[idx] = acc / (float)div;
}

torch::Tensor avgpool2d_naive_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, bool ceil, bool incl) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 4, "x must be a CUDA float32 NCHW tensor");
  TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling parameters");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
  const int64_t Ho = pool_out_len(H, k, s, p, ceil), Wo = pool_out_len(W, k, s, p, ceil);
  TORCH_CHECK(Ho > 0 && Wo > 0, "empty output");
  auto out = torch::empty({N, C, Ho, Wo}, xc.options());
  const int64_t total = N * C * Ho * Wo;
  if (total == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  avgpool_naive_kernel<<<(unsigned)((total + 255) / 256), 256, 0, stream>>>(
      xc.data_ptr<float>(), out.data_ptr<float>(), total, (int)H, (int)W, (int)Ho, (int)Wo, (int)k, (int)s, (int)p, incl);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor avgpool2d_naive_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, bool ceil, bool incl);"

_ext = load_inline(name="t2c_avgpool2d_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["avgpool2d_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, kernel_size, stride, padding, ceil_mode, count_include_pad):
        super().__init__()
        self.k, self.s, self.p = int(kernel_size), int(stride), int(padding)
        self.ceil, self.incl = bool(ceil_mode), bool(count_include_pad)

    def forward(self, x):
        return _ext.avgpool2d_naive_forward(x, self.k, self.s, self.p, self.ceil, self.incl)
