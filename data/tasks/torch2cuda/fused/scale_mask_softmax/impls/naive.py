# strategy: naive (weak) — one thread per row, three sequential passes each recomputing scale*x + mask; uncoalesced
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per row; the scaled+masked logit is recomputed in each of three sequential passes
__global__ void ms_row_kernel(const float* s, const float* mask, float* y, int64_t rows, int64_t Sq, int64_t S, float scale) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* sr = s + r * S;
  const float* mr = mask + (r % Sq) * S;
  float* yr = y + r * S;
  float m = -INFINITY;
  for (int64_t i = 0; i < S; ++i) m = fmaxf(m, sr[i] * scale + mr[i]);
  float sum = 0.0f;
  for (int64_t i = 0; i < S; ++i) sum += expf(sr[i] * scale + mr[i] - m);
  for (int64_t i = 0; i < S; ++i) yr[i] = expf(sr[i] * scale + mr[i] - m) / sum;
}
torch::Tensor masked_softmax_naive_forward(torch::Tensor s, torch::Tensor mask, double scale) {
  TORCH_CHECK(s.is_cuda(), "s must be a CUDA tensor");
  TORCH_CHECK(s.scalar_type() == torch::kFloat32, "s must be float32");
  TORCH_CHECK(mask.is_cuda(), "mask must be a CUDA tensor");
  TORCH_CHECK(mask.scalar_type() == torch::kFloat32, "mask must be float32");
  const int64_t S = s.size(-1);
  TORCH_CHECK(mask.dim() == 2 && mask.size(0) == s.size(-2) && mask.size(1) == S, "mask must be (seq, seq)");
  auto sc = s.contiguous(); auto mc = mask.contiguous();
  const int64_t Sq = s.size(-2);
  const int64_t rows = S == 0 ? 0 : sc.numel() / S;
  auto out = torch::empty_like(sc);
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  ms_row_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(sc.data_ptr<float>(), mc.data_ptr<float>(), out.data_ptr<float>(), rows, Sq, S, (float)scale);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor masked_softmax_naive_forward(torch::Tensor s, torch::Tensor mask, double scale);"

_ext = load_inline(name="t2c_masked_softmax_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["masked_softmax_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, scale=0.125):
        super().__init__()
        self.scale = scale

    def forward(self, scores, mask):
        return _ext.masked_softmax_naive_forward(scores, mask, float(self.scale))
