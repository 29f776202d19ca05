# strategy: naive (weak) — one thread per (row, feature) with the batch row fastest across threads (uncoalesced scalar reads of random table rows); every position is read, pad rows included, and multiplied by its 0/1 mask
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void emm_naive_kernel(const int64_t* ids, const float* w, float* y, int64_t B, int64_t S, int64_t V,
                                 int64_t D, int64_t pad) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * D) return;
  const int64_t b = i % B, d = i / B;   // row fastest: neighbouring threads read different rows
  float s = 0.0f, n = 0.0f;
  for (int64_t t = 0; t < S; ++t) {
    const int64_t id = ids[b * S + t];
    const float m = id != pad ? 1.0f : 0.0f;
    s += (id >= 0 && id < V) ? w[id * D + d] * m : NAN;
    n += m;
  }
  y[b * D + d] = s / (n > 1.0f ? n : 1.0f);
}

torch::Tensor emm_naive_forward(torch::Tensor ids, torch::Tensor weight, int64_t pad) {
  TORCH_CHECK(ids.is_cuda() && ids.scalar_type() == torch::kInt64 && ids.dim() == 2, "ids must be CUDA int64 (B, S)");
  TORCH_CHECK(weight.is_cuda() && weight.scalar_type() == torch::kFloat32 && weight.dim() == 2, "weight must be CUDA float32 (V, D)");
  auto ic = ids.contiguous(); auto wc = weight.contiguous();
  const int64_t B = ic.size(0), S = ic.size(1), V = wc.size(0), D = wc.size(1);
  auto out = torch::empty({B, D}, wc.options());
  if (B * D == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  emm_naive_kernel<<<(unsigned)((B * D + 255) / 256), 256, 0, stream>>>(ic.data_ptr<int64_t>(), wc.data_ptr<float>(),
                                                                        out.data_ptr<float>(), B, S, V, D, pad);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor emm_naive_forward(torch::Tensor ids, torch::Tensor weight, int64_t pad);"

_ext = load_inline(name="t2c_embedding_masked_mean_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["emm_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, vocab_size, dim, pad_id):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=pad_id)
        self.pad_id = pad_id

    def forward(self, ids):
        return _ext.emm_naive_forward(ids, self.emb.weight, self.pad_id)
