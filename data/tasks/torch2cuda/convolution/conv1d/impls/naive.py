# strategy: naive (weak) — one thread per output element looping over input channels and taps from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per output element
__global__ void conv1d_naive_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ y, int N, int Cin, int L, int Cout, int K, int pad, int Lo) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t total = (int64_t)N * Cout * Lo;
  if (idx >= total) return;
  const int o = (int)(idx % Lo);
  const int co = (int)((idx / Lo) % Cout);
  const int n = (int)(idx / ((int64_t)Lo * Cout));
  float acc = bias[co];
  for (int ci = 0; ci < Cin; ++ci)
    for (int k = 0; k < K; ++k) {
      const int i = o - pad + k;
      if (i >= 0 && i < L) acc = fmaf(x[((int64_t)n * Cin + ci) * L + i], w[((int64_t)co * Cin + ci) * K + k], acc);
    }
  y[idx] = acc;
}

torch::Tensor conv1d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.dim() == 3 && w.dim() == 3 && x.size(1) == w.size(1), "shape mismatch");
  auto xc = x.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int N = (int)xc.size(0), Cin = (int)xc.size(1), L = (int)xc.size(2);
  const int Cout = (int)wc.size(0), K = (int)wc.size(2);
  const int Lo = L + 2 * (int)pad - K + 1;
  TORCH_CHECK(Lo > 0, "empty output");
  auto out = torch::empty({(int64_t)N, (int64_t)Cout, (int64_t)Lo}, xc.options());
  if (N == 0 || Cout == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t total = (int64_t)N * Cout * Lo;
  conv1d_naive_kernel<<<(unsigned)((total + 255) / 256), 256, 0, stream>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), N, Cin, L, Cout, K, (int)pad, Lo);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor conv1d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad);"

_ext = load_inline(name="t2c_conv1d_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["conv1d_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        return _ext.conv1d_naive_forward(x, self.conv.weight, self.conv.bias, int(self.conv.padding[0]))
