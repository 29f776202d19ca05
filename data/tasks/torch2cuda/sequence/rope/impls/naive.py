# strategy: naive (weak) — one thread per (batch, position, head) row looping over its rotation pairs and recomputing sin/cos for every pair; neighbouring threads are a whole head_dim row apart
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void rope_row_kernel(const float* x, const float* inv_freq, float* y, int64_t nrows, int T, int H, int D) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;   // r = (b * T + t) * H + h
  if (r >= nrows) return;
  const int t = (int)((r / H) % T);
  const int half = D / 2;
  const float* xr = x + r * D;
  float* yr = y + r * D;
  for (int i = 0; i < half; ++i) {
    const float ang = __fmul_rn((float)t, inv_freq[i]);
    const float c = cosf(ang), s = sinf(ang);
    const float a = xr[i], b = xr[i + half];
    yr[i] = __fsub_rn(__fmul_rn(a, c), __fmul_rn(b, s));
    yr[i + half] = __fadd_rn(__fmul_rn(b, c), __fmul_rn(a, s));
  }
}

torch::Tensor rope_naive_forward(torch::Tensor x, torch::Tensor inv_freq) {
  TORCH_CHECK(x.is_cuda() && inv_freq.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && inv_freq.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 4, "x must be (batch, seq, heads, head_dim)");
  auto xc = x.contiguous(); auto fc = inv_freq.contiguous();
  const int64_t B = xc.size(0), T = xc.size(1), H = xc.size(2), D = xc.size(3);
  TORCH_CHECK(D % 2 == 0 && fc.numel() == D / 2, "head_dim must be even and match inv_freq");
  auto out = torch::empty_like(xc);
  const int64_t nrows = B * T * H;
  if (nrows == 0 || D == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  rope_row_kernel<<<(unsigned)((nrows + threads - 1) / threads), threads, 0, stream>>>(
      xc.data_ptr<float>(), fc.data_ptr<float>(), out.data_ptr<float>(), nrows, (int)T, (int)H, (int)D);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor rope_naive_forward(torch::Tensor x, torch::Tensor inv_freq);"

_ext = load_inline(name="t2c_rope_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rope_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, head_dim, base):
        super().__init__()
        self.register_buffer("inv_freq", torch.zeros(head_dim // 2))

    def forward(self, x):
        return _ext.rope_naive_forward(x, self.inv_freq)
