# strategy: naive (weak) — one thread per output element looping over input channels and the window, all operands from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per output element: loops over input channels and the kernel window
__global__ void conv2d_naive_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ y, int N, int Cin, int H, int W, int Cout, int KH, int KW, int pad, int Ho, int Wo, bool relu) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t total = (int64_t)N * Cout * Ho * Wo;
  if (idx >= total) return;
  const int ow = (int)(idx % Wo);
  const int oh = (int)((idx / Wo) % Ho);
  const int co = (int)((idx / ((int64_t)Wo * Ho)) % Cout);
  const int n = (int)(idx / ((int64_t)Wo * Ho * Cout));
  float acc = bias ? bias[co] : 0.0f;
  for (int ci = 0; ci < Cin; ++ci)
    for (int kh = 0; kh < KH; ++kh) {
      const int ih = oh - pad + kh;
      if (ih < 0 || ih >= H) continue;
      for (int kw = 0; kw < KW; ++kw) {
        const int iw = ow - pad + kw;
        if (iw < 0 || iw >= W) continue;
        acc = fmaf(x[(((int64_t)n * Cin + ci) * H + ih) * W + iw], w[(((int64_t)co * Cin + ci) * KH + kh) * KW + kw], acc);
      }
    }
  if (relu) acc = fmaxf(acc, 0.0f);
  y[idx] = acc;
}

torch::Tensor conv2d_3x3_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, bool relu) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.dim() == 4 && w.dim() == 4 && x.size(1) == w.size(1), "shape mismatch");
  auto xc = x.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int N = (int)xc.size(0), Cin = (int)xc.size(1), H = (int)xc.size(2), W = (int)xc.size(3);
  const int Cout = (int)wc.size(0), KH = (int)wc.size(2), KW = (int)wc.size(3);
  const int Ho = H + 2 * (int)pad - KH + 1, Wo = W + 2 * (int)pad - KW + 1;
  TORCH_CHECK(Ho > 0 && Wo > 0, "empty output");
  auto out = torch::empty({(int64_t)N, (int64_t)Cout, (int64_t)Ho, (int64_t)Wo}, xc.options());
  if (N == 0 || Cout == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t total = (int64_t)N * Cout * Ho * Wo;
  conv2d_naive_kernel<<<(unsigned)((total + 255) / 256), 256, 0, stream>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), N, Cin, H, W, Cout, KH, KW, (int)pad, Ho, Wo, relu);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor conv2d_3x3_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, bool relu);"

_ext = load_inline(name="t2c_conv2d_3x3_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["conv2d_3x3_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        return _ext.conv2d_3x3_naive_forward(x, self.conv.weight, self.conv.bias, kernel_size_pad(self.conv), False)


def kernel_size_pad(conv):
    return int(conv.padding[0])
