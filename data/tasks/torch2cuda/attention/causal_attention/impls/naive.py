# strategy: naive (weak) — one thread per query row, two passes over all keys (max/denominator, then weighted values) straight from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

constexpr int MAXD = 128;
// one thread per query row: pass 1 finds the max score and the softmax denominator, pass 2 recomputes
// every score and accumulates the weighted values; everything is read from global memory
__global__ void attn_naive_kernel(const float* q, const float* k, const float* v, float* o, int64_t BH, int S, int D, float scale) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= BH * S) return;
  const int64_t bh = t / S;
  const int i = (int)(t % S);
  const float* qi = q + t * D;
  const float* kb = k + bh * S * D;
  const float* vb = v + bh * S * D;
  const int jend = i + 1;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < jend; ++j) {
    float s = 0.0f;
    for (int d = 0; d < D; ++d) s = fmaf(qi[d], kb[(int64_t)j * D + d], s);
    s = __fmul_rn(s, scale);  // never contracted into an fma: both passes must round the score alike
    if (s > m) { l = l * expf(m - s) + 1.0f; m = s; } else { l += expf(s - m); }
  }
  float acc[MAXD];
  for (int d = 0; d < D; ++d) acc[d] = 0.0f;
  for (int j = 0; j < jend; ++j) {
    float s = 0.0f;
    for (int d = 0; d < D; ++d) s = fmaf(qi[d], kb[(int64_t)j * D + d], s);
    const float p = expf(__fmul_rn(s, scale) - m);  // the score exactly as pass 1 rounded it
    for (int d = 0; d < D; ++d) acc[d] = fmaf(p, vb[(int64_t)j * D + d], acc[d]);
  }
  const float inv = 1.0f / l;
  for (int d = 0; d < D; ++d) o[t * D + d] = acc[d] * inv;
}
torch::Tensor causal_attention_naive_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
  TORCH_CHECK(q.is_cuda(), "q must be a CUDA tensor");
  TORCH_CHECK(q.scalar_type() == torch::kFloat32, "q must be float32");
  TORCH_CHECK(k.is_cuda(), "k must be a CUDA tensor");
  TORCH_CHECK(k.scalar_type() == torch::kFloat32, "k must be float32");
  TORCH_CHECK(v.is_cuda(), "v must be a CUDA tensor");
  TORCH_CHECK(v.scalar_type() == torch::kFloat32, "v must be float32");
  TORCH_CHECK(q.dim() == 4 && k.sizes() == q.sizes() && v.sizes() == q.sizes(), "q, k, v must share one (B, H, S, D) shape");
  auto qc = q.contiguous(); auto kc = k.contiguous(); auto vc = v.contiguous();
  const int64_t BH = qc.size(0) * qc.size(1);
  const int S = (int)qc.size(2), D = (int)qc.size(3);
  auto out = torch::empty_like(qc);
  if (BH == 0 || S == 0) return out;
  const float scale = 1.0f / sqrtf((float)D);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  TORCH_CHECK(D <= MAXD, "head_dim > 128 not supported");
  const int threads = 128;
  attn_naive_kernel<<<(unsigned)((BH * S + threads - 1) / threads), threads, 0, stream>>>(
      qc.data_ptr<float>(), kc.data_ptr<float>(), vc.data_ptr<float>(), out.data_ptr<float>(), BH, S, D, scale);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor causal_attention_naive_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

_ext = load_inline(name="t2c_causal_attention_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["causal_attention_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return _ext.causal_attention_naive_forward(q, k, v)
