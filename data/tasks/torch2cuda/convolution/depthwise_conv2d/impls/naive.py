# strategy: naive (weak) — one thread per output pixel reading its window straight from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per output element; window read straight from global memory
__global__ void dw_naive_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ y, int N, int C, int H, int W, int K, int pad, int Ho, int Wo) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t total = (int64_t)N * C * Ho * Wo;
  if (idx >= total) return;
  const int ow = (int)(idx % Wo);
  const int oh = (int)((idx / Wo) % Ho);
  const int64_t plane = idx / ((int64_t)Wo * Ho);
  const int c = (int)(plane % C);
  const float* xp = x + plane * H * W;
  float acc = bias[c];
  for (int kh = 0; kh < K; ++kh)
    for (int kw = 0; kw < K; ++kw) {
      const int ih = oh - pad + kh, iw = ow - pad + kw;
      if (ih >= 0 && ih < H && iw >= 0 && iw < W) acc = fmaf(xp[(int64_t)ih * W + iw], w[(c * K + kh) * K + kw], acc);
    }
  y[idx] = acc;
}

torch::Tensor depthwise_conv2d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.dim() == 4 && w.dim() == 4 && w.size(0) == x.size(1) && w.size(1) == 1 && w.size(2) == w.size(3), "shape mismatch");
  auto xc = x.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int N = (int)xc.size(0), C = (int)xc.size(1), H = (int)xc.size(2), W = (int)xc.size(3);
  const int K = (int)wc.size(2);
  const int Ho = H + 2 * (int)pad - K + 1, Wo = W + 2 * (int)pad - K + 1;
  TORCH_CHECK(Ho > 0 && Wo > 0, "empty output");
  auto out = torch::empty({(int64_t)N, (int64_t)C, (int64_t)Ho, (int64_t)Wo}, xc.options());
  if (N == 0 || C == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t total = (int64_t)N * C * Ho * Wo;
  dw_naive_kernel<<<(unsigned)((total + 255) / 256), 256, 0, stream>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), N, C, H, W, K, (int)pad, Ho, Wo);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor depthwise_conv2d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad);"

_ext = load_inline(name="t2c_depthwise_conv2d_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["depthwise_conv2d_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x):
        return _ext.depthwise_conv2d_naive_forward(x, self.conv.weight, self.conv.bias, int(self.conv.padding[0]))
