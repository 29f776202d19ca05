# strategy: pair_coalesced — one thread per rotation pair (grid-stride, pair index fastest): a warp reads two contiguous runs (first and second half of the head) and writes them back coalesced; sincosf per pair
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void rope_pair_kernel(const float* __restrict__ x, const float* __restrict__ inv_freq, float* __restrict__ y,
                                 int64_t npairs, int T, int H, int half) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; p < npairs; p += stride) {
    const int i = (int)(p % half);
    const int64_t row = p / half;               // (b * T + t) * H + h
    const int t = (int)((row / H) % T);
    float s, c;
    sincosf(__fmul_rn((float)t, __ldg(inv_freq + i)), &s, &c);
    const int64_t o = row * 2 * half + i;
    const float a = __ldg(x + o), b = __ldg(x + o + half);
    y[o] = __fsub_rn(__fmul_rn(a, c), __fmul_rn(b, s));
    y[o + half] = __fadd_rn(__fmul_rn(b, c), __fmul_rn(a, s));
  }
}

torch::Tensor rope_pair_forward(torch::Tensor x, torch::Tensor inv_freq) {
  TORCH_CHECK(x.is_cuda() && inv_freq.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && inv_freq.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 4, "x must be (batch, seq, heads, head_dim)");
  auto xc = x.contiguous(); auto fc = inv_freq.contiguous();
  const int64_t B = xc.size(0), T = xc.size(1), H = xc.size(2), D = xc.size(3);
  TORCH_CHECK(D % 2 == 0 && fc.numel() == D / 2, "head_dim must be even and match inv_freq");
  auto out = torch::empty_like(xc);
  const int64_t npairs = B * T * H * (D / 2);
  if (npairs == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int threads = 256;
  int64_t blocks = (npairs + threads - 1) / threads;
  if (blocks > (int64_t)sms * 16) blocks = (int64_t)sms * 16;
  rope_pair_kernel<<<(unsigned)blocks, threads, 0, stream>>>(xc.data_ptr<float>(), fc.data_ptr<float>(), out.data_ptr<float>(),
                                                             npairs, (int)T, (int)H, (int)(D / 2));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor rope_pair_forward(torch::Tensor x, torch::Tensor inv_freq);"

_ext = load_inline(name="t2c_rope_pair_coalesced", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rope_pair_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, head_dim, base):
        super().__init__()
        self.register_buffer("inv_freq", torch.zeros(head_dim // 2))

    def forward(self, x):
        return _ext.rope_pair_forward(x, self.inv_freq)
