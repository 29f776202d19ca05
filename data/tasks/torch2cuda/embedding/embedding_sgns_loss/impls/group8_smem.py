# strategy: group8_smem — one 128-thread block per example: the centre row is staged once in shared memory, the block splits into 16 groups of 8 lanes that each take context rows k = g, g + 16, ... (16 rows in flight instead of one), an 8-lane shuffle reduces each dot, and the 16 group sums of logsigmoid terms are combined in a fixed order (deterministic)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int NT = 128;
constexpr int GL = 8;            // lanes per group
constexpr int NG = NT / GL;      // groups per block

__device__ __forceinline__ float log_sigmoid(float x) { return fminf(x, 0.0f) - log1pf(expf(-fabsf(x))); }

template <bool VEC, bool SMEM>
__global__ void __launch_bounds__(NT) sgns_group_kernel(const int64_t* __restrict__ center,
                                                        const int64_t* __restrict__ context,
                                                        const float* __restrict__ win, const float* __restrict__ wout,
                                                        float* __restrict__ y, int64_t C, int64_t V, int64_t D) {
  extern __shared__ float4 sh_cen4[];   // the centre row (D floats) when SMEM
  __shared__ float sh_part[NG];
  __shared__ int sh_bad;
  const int tid = threadIdx.x, g = tid / GL, gl = tid % GL;
  const int64_t b = blockIdx.x;
  const int64_t units = VEC ? D / 4 : D;
  const int64_t ci = __ldg(center + b);
  const bool cok = ci >= 0 && ci < V;
  const float* crow = win + (cok ? ci : 0) * D;
  float* sh_cen = reinterpret_cast<float*>(sh_cen4);
  if (tid == 0) sh_bad = cok ? 0 : 1;
  if (SMEM) {
    for (int64_t c = tid; c < units; c += NT) {
      if (VEC) sh_cen4[c] = __ldg(reinterpret_cast<const float4*>(crow) + c);
      else sh_cen[c] = __ldg(crow + c);
    }
  }
  __syncthreads();
  const int64_t* ctx = context + b * C;
  float part = 0.0f;   // this group's sum of logsigmoid terms, in increasing k
  const int64_t rounds = (C + NG - 1) / NG;
  for (int64_t r = 0; r < rounds; ++r) {   // uniform over the block: every group runs every round
    const int64_t k = r * NG + g;
    const bool has = k < C;
    const int64_t oi = has ? __ldg(ctx + k) : 0;
    const bool ok = oi >= 0 && oi < V;
    if (has && !ok) sh_bad = 1;
    const float* orow = wout + (ok ? oi : 0) * D;
    float dot = 0.0f;
    if (has) {
      for (int64_t c = gl; c < units; c += GL) {
        if (VEC) {
          const float4 v = __ldg(reinterpret_cast<const float4*>(orow) + c);
          const float4 u = SMEM ? sh_cen4[c] : __ldg(reinterpret_cast<const float4*>(crow) + c);
          dot += v.x * u.x + v.y * u.y + v.z * u.z + v.w * u.w;
        } else {
          dot += __ldg(orow + c) * (SMEM ? sh_cen[c] : __ldg(crow + c));
        }
      }
    }
#pragma unroll
    for (int o = GL / 2; o > 0; o >>= 1) dot += __shfl_xor_sync(0xffffffffu, dot, o, GL);   // within each 8-lane group
    if (has) part += k == 0 ? log_sigmoid(dot) : log_sigmoid(-dot);
  }
  if (gl == 0) sh_part[g] = part;
  __syncthreads();
  if (tid == 0) {
    float s = 0.0f;
    for (int i = 0; i < NG; ++i) s += sh_part[i];   // fixed order
    y[b] = sh_bad ? NAN : -s;
  }
}

torch::Tensor sgns_group_forward(torch::Tensor center, torch::Tensor context, torch::Tensor win, torch::Tensor wout) {
  TORCH_CHECK(center.is_cuda() && center.scalar_type() == torch::kInt64 && center.dim() == 1, "center must be CUDA int64 (B,)");
  TORCH_CHECK(context.is_cuda() && context.scalar_type() == torch::kInt64 && context.dim() == 2 &&
              context.size(0) == center.size(0) && context.size(1) >= 1, "context must be CUDA int64 (B, 1 + K)");
  TORCH_CHECK(win.is_cuda() && win.scalar_type() == torch::kFloat32 && win.dim() == 2, "in_emb must be CUDA float32 (V, D)");
  TORCH_CHECK(wout.is_cuda() && wout.scalar_type() == torch::kFloat32 && wout.sizes() == win.sizes(), "out_emb must match in_emb");
  auto cc = center.contiguous(); auto xc = context.contiguous(); auto wi = win.contiguous(); auto wo = wout.contiguous();
  const int64_t B = cc.size(0), C = xc.size(1), V = wi.size(0), D = wi.size(1);
  auto out = torch::empty({B}, wi.options());
  if (B == 0) return out;
  TORCH_CHECK(B <= 2147483647LL, "too many examples");
  const bool vec = (D % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(wi.data_ptr<float>()) | reinterpret_cast<uintptr_t>(wo.data_ptr<float>())) & 15) == 0);
  const size_t smem = (size_t)D * sizeof(float);
  const bool use_smem = smem <= 48 * 1024;   // wider rows: the centre is re-read through the read-only cache
  const size_t dyn = use_smem ? ((smem + 15) / 16) * 16 : 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t* cp = cc.data_ptr<int64_t>();
  const int64_t* xp = xc.data_ptr<int64_t>();
  const float* ip = wi.data_ptr<float>();
  const float* op = wo.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  if (vec && use_smem) sgns_group_kernel<true, true><<<(unsigned)B, NT, dyn, stream>>>(cp, xp, ip, op, yp, C, V, D);
  else if (vec) sgns_group_kernel<true, false><<<(unsigned)B, NT, 0, stream>>>(cp, xp, ip, op, yp, C, V, D);
  else if (use_smem) sgns_group_kernel<false, true><<<(unsigned)B, NT, dyn, stream>>>(cp, xp, ip, op, yp, C, V, D);
  else sgns_group_kernel<false, false><<<(unsigned)B, NT, 0, stream>>>(cp, xp, ip, op, yp, C, V, D);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sgns_group_forward(torch::Tensor center, torch::Tensor context, torch::Tensor win, torch::Tensor wout);"

_ext = load_inline(name="t2c_embedding_sgns_loss_group8", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sgns_group_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.in_emb = nn.Embedding(vocab_size, dim)
        self.out_emb = nn.Embedding(vocab_size, dim)

    def forward(self, center, context):
        return _ext.sgns_group_forward(center, context, self.in_emb.weight, self.out_emb.weight)
