# strategy: naive (weak) — one thread per (n, c) plane walks the whole plane sequentially for its max and sum; neighbouring threads read addresses a plane apart (uncoalesced)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void concat_pool_naive_kernel(const float* x, float* y, int64_t planes, int64_t C, int64_t HW) {
  const int64_t pl = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (pl >= planes) return;
  const float* xp = x + pl * HW;
  float m = -INFINITY, s = 0.0f;
  for (int64_t i = 0; i < HW; ++i) {
    const float v = xp[i];
    if (v > m || v != v) m = (m != m) ? m : v;
    s += v;
  }
  const int64_t n = pl / C, c = pl - n * C;
  y[n * 2 * C + c] = m;
  y[n * 2 * C + C + c] = s / (float)HW;
}

torch::Tensor concat_pool_naive_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 4, "x must be a CUDA float32 NCHW tensor");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), HW = xc.size(2) * xc.size(3);
  TORCH_CHECK(HW > 0, "empty planes");
  auto out = torch::empty({N, 2 * C}, xc.options());
  const int64_t planes = N * C;
  if (planes == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  concat_pool_naive_kernel<<<(unsigned)((planes + 127) / 128), 128, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                                                planes, C, HW);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor concat_pool_naive_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_concat_pool2d_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["concat_pool_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.concat_pool_naive_forward(x)
