# strategy: warp_example_vec — one warp per example: the centre row is read once into registers (float4, up to 512 columns; the rest re-read through the read-only cache), the warp streams the 1 + K context rows with coalesced float4 loads, each dot is reduced with a butterfly shuffle and the loss is accumulated in order on every lane (deterministic)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int TILES = 4;   // 32-unit column tiles of the centre row kept in registers

__device__ __forceinline__ float log_sigmoid(float x) { return fminf(x, 0.0f) - log1pf(expf(-fabsf(x))); }

template <bool VEC>
__global__ void sgns_warp_kernel(const int64_t* __restrict__ center, const int64_t* __restrict__ context,
                                 const float* __restrict__ win, const float* __restrict__ wout, float* __restrict__ y,
                                 int64_t B, int64_t C, int64_t V, int64_t D) {
  const int lane = threadIdx.x & 31;
  const int64_t first = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int64_t step = ((int64_t)gridDim.x * blockDim.x) >> 5;
  const int64_t units = VEC ? D / 4 : D;
  for (int64_t b = first; b < B; b += step) {
    const int64_t ci = __ldg(center + b);
    const bool cok = ci >= 0 && ci < V;
    const float* crow = win + (cok ? ci : 0) * D;
    float4 cen[TILES];
#pragma unroll
    for (int t = 0; t < TILES; ++t) {
      const int64_t c = t * 32 + lane;
      cen[t] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (c < units) {
        if (VEC) cen[t] = __ldg(reinterpret_cast<const float4*>(crow) + c);
        else cen[t].x = __ldg(crow + c);
      }
    }
    const int64_t* ctx = context + b * C;
    float pos = 0.0f, neg = 0.0f;
    bool bad = !cok;
    for (int64_t k = 0; k < C; ++k) {
      const int64_t oi = __ldg(ctx + k);
      const bool ok = oi >= 0 && oi < V;
      bad = bad || !ok;
      const float* orow = wout + (ok ? oi : 0) * D;
      float dot = 0.0f;
#pragma unroll
      for (int t = 0; t < TILES; ++t) {
        const int64_t c = t * 32 + lane;
        if (c < units) {
          if (VEC) {
            const float4 v = __ldg(reinterpret_cast<const float4*>(orow) + c);
            dot += v.x * cen[t].x + v.y * cen[t].y + v.z * cen[t].z + v.w * cen[t].w;
          } else {
            dot += __ldg(orow + c) * cen[t].x;
          }
        }
      }
      for (int64_t c = TILES * 32 + lane; c < units; c += 32) {   // rows wider than 512 (or 128 scalar) columns
        if (VEC) {
          const float4 v = __ldg(reinterpret_cast<const float4*>(orow) + c);
          const float4 u = __ldg(reinterpret_cast<const float4*>(crow) + c);
          dot += v.x * u.x + v.y * u.y + v.z * u.z + v.w * u.w;
        } else {
          dot += __ldg(orow + c) * __ldg(crow + c);
        }
      }
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) dot += __shfl_xor_sync(0xffffffffu, dot, o);   // every lane holds the dot
      if (k == 0) pos = log_sigmoid(dot);
      else neg += log_sigmoid(-dot);
    }
    if (lane == 0) y[b] = bad ? NAN : -(pos + neg);
  }
}

torch::Tensor sgns_warp_forward(torch::Tensor center, torch::Tensor context, torch::Tensor win, torch::Tensor wout) {
  TORCH_CHECK(center.is_cuda() && center.scalar_type() == torch::kInt64 && center.dim() == 1, "center must be CUDA int64 (B,)");
  TORCH_CHECK(context.is_cuda() && context.scalar_type() == torch::kInt64 && context.dim() == 2 &&
              context.size(0) == center.size(0) && context.size(1) >= 1, "context must be CUDA int64 (B, 1 + K)");
  TORCH_CHECK(win.is_cuda() && win.scalar_type() == torch::kFloat32 && win.dim() == 2, "in_emb must be CUDA float32 (V, D)");
  TORCH_CHECK(wout.is_cuda() && wout.scalar_type() == torch::kFloat32 && wout.sizes() == win.sizes(), "out_emb must match in_emb");
  auto cc = center.contiguous(); auto xc = context.contiguous(); auto wi = win.contiguous(); auto wo = wout.contiguous();
  const int64_t B = cc.size(0), C = xc.size(1), V = wi.size(0), D = wi.size(1);
  auto out = torch::empty({B}, wi.options());
  if (B == 0) return out;
  const bool vec = (D % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(wi.data_ptr<float>()) | reinterpret_cast<uintptr_t>(wo.data_ptr<float>())) & 15) == 0);
  int64_t blocks = (B + 7) / 8;   // 8 warps per block
  if (blocks > 65536) blocks = 65536;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  if (vec) {
    sgns_warp_kernel<true><<<(unsigned)blocks, 256, 0, stream>>>(cc.data_ptr<int64_t>(), xc.data_ptr<int64_t>(),
        wi.data_ptr<float>(), wo.data_ptr<float>(), out.data_ptr<float>(), B, C, V, D);
  } else {
    sgns_warp_kernel<false><<<(unsigned)blocks, 256, 0, stream>>>(cc.data_ptr<int64_t>(), xc.data_ptr<int64_t>(),
        wi.data_ptr<float>(), wo.data_ptr<float>(), out.data_ptr<float>(), B, C, V, D);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sgns_warp_forward(torch::Tensor center, torch::Tensor context, torch::Tensor win, torch::Tensor wout);"

_ext = load_inline(name="t2c_embedding_sgns_loss_warp", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sgns_warp_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.in_emb = nn.Embedding(vocab_size, dim)
        self.out_emb = nn.Embedding(vocab_size, dim)

    def forward(self, center, context):
        return _ext.sgns_warp_forward(center, context, self.in_emb.weight, self.out_emb.weight)
