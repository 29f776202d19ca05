# strategy: naive (weak) — one thread per output element reading its dilated window straight from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

static int64_t pool_len(int64_t n, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  int64_t o = (n + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0)) / s + 1;
  if (ceil && (o - 1) * s >= n + p) --o;
  return o;
}

__global__ void maxpool1d_naive_kernel(const float* x, float* y, int64_t total, int L, int Lo, int k, int s, int p, int d) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int o = (int)(idx % Lo);
  const int64_t row = idx / Lo;
  const float* xr = x + row * L;
  float m = -INFINITY;
  for (int j = 0; j < k; ++j) {
    const int i = o * s - p + j * d;
    if (i < 0 || i >= L) continue;
    const float v = xr[i];
    if (v > m || v != v) m = v;
    if (m != m) break;
  }
  y[idx] = m;
}

torch::Tensor maxpool1d_naive_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 3, "x must be a CUDA float32 (N, C, L) tensor");
  TORCH_CHECK(k > 0 && s > 0 && d > 0 && p >= 0 && 2 * p <= (k - 1) * d + 1, "invalid pooling parameters");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), L = xc.size(2);
  const int64_t Lo = pool_len(L, k, s, p, d, ceil);
  TORCH_CHECK(Lo > 0, "empty output");
  auto out = torch::empty({N, C, Lo}, xc.options());
  const int64_t total = N * C * Lo;
  if (total == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  maxpool1d_naive_kernel<<<(unsigned)((total + 255) / 256), 256, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), total,
                                                                              (int)L, (int)Lo, (int)k, (int)s, (int)p, (int)d);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor maxpool1d_naive_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil);"

_ext = load_inline(name="t2c_maxpool1d_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["maxpool1d_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, kernel_size, stride, padding, dilation, ceil_mode):
        super().__init__()
        self.k, self.s, self.p, self.d = int(kernel_size), int(stride), int(padding), int(dilation)
        self.ceil = bool(ceil_mode)

    def forward(self, x):
        return _ext.maxpool1d_naive_forward(x, self.k, self.s, self.p, self.d, self.ceil)
