# strategy: naive (weak) — two kernels: one thread per (example, context) pair computes its dot product with scalar loads (the threads of a warp walk different rows column by column: uncoalesced) into a temporary score matrix, then one thread per example applies logsigmoid and sums
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void sgns_naive_scores(const int64_t* center, const int64_t* context, const float* win, const float* wout,
                                  float* scores, int64_t B, int64_t C, int64_t V, int64_t D) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * C) return;
  const int64_t b = i / C;
  const int64_t ci = center[b], oi = context[i];
  if (ci < 0 || ci >= V || oi < 0 || oi >= V) { scores[i] = NAN; return; }
  float s = 0.0f;
  for (int64_t d = 0; d < D; ++d) s += wout[oi * D + d] * win[ci * D + d];
  scores[i] = s;
}

__device__ __forceinline__ float log_sigmoid(float x) { return fminf(x, 0.0f) - log1pf(expf(-fabsf(x))); }

__global__ void sgns_naive_loss(const float* scores, float* y, int64_t B, int64_t C) {
  const int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  const float pos = log_sigmoid(scores[b * C]);
  float neg = 0.0f;
  for (int64_t k = 1; k < C; ++k) neg += log_sigmoid(-scores[b * C + k]);
  y[b] = -(pos + neg);
}

torch::Tensor sgns_naive_forward(torch::Tensor center, torch::Tensor context, torch::Tensor win, torch::Tensor wout) {
  TORCH_CHECK(center.is_cuda() && center.scalar_type() == torch::kInt64 && center.dim() == 1, "center must be CUDA int64 (B,)");
  TORCH_CHECK(context.is_cuda() && context.scalar_type() == torch::kInt64 && context.dim() == 2 &&
              context.size(0) == center.size(0) && context.size(1) >= 1, "context must be CUDA int64 (B, 1 + K)");
  TORCH_CHECK(win.is_cuda() && win.scalar_type() == torch::kFloat32 && win.dim() == 2, "in_emb must be CUDA float32 (V, D)");
  TORCH_CHECK(wout.is_cuda() && wout.scalar_type() == torch::kFloat32 && wout.sizes() == win.sizes(), "out_emb must match in_emb");
  auto cc = center.contiguous(); auto xc = context.contiguous(); auto wi = win.contiguous(); auto wo = wout.contiguous();
  const int64_t B = cc.size(0), C = xc.size(1), V = wi.size(0), D = wi.size(1);
  auto out = torch::empty({B}, wi.options());
  if (B == 0) return out;
  auto scores = torch::empty({B, C}, wi.options());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  sgns_naive_scores<<<(unsigned)((B * C + 255) / 256), 256, 0, stream>>>(cc.data_ptr<int64_t>(), xc.data_ptr<int64_t>(),
      wi.data_ptr<float>(), wo.data_ptr<float>(), scores.data_ptr<float>(), B, C, V, D);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  sgns_naive_loss<<<(unsigned)((B + 255) / 256), 256, 0, stream>>>(scores.data_ptr<float>(), out.data_ptr<float>(), B, C);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sgns_naive_forward(torch::Tensor center, torch::Tensor context, torch::Tensor win, torch::Tensor wout);"

_ext = load_inline(name="t2c_embedding_sgns_loss_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sgns_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.in_emb = nn.Embedding(vocab_size, dim)
        self.out_emb = nn.Embedding(vocab_size, dim)

    def forward(self, center, context):
        return _ext.sgns_naive_forward(center, context, self.in_emb.weight, self.out_emb.weight)
