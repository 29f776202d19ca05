# strategy: last_block_finalize — one reduction kernel whose last block to finish (threadfence + atomic ticket) folds every block's partial into the clip coefficient itself, so the update kernel reads one float; 4 independent scalar elements per thread in both kernels (no alignment requirement)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define THREADS 256
#define ILP 4

__global__ void ticket_zero_kernel(unsigned int* ticket) {
  if (threadIdx.x == 0) ticket[0] = 0u;
}
// part has gridDim.x entries; coef[0] is written by the last block
__global__ void __launch_bounds__(THREADS) sumsq_last_block_kernel(const float* __restrict__ g, int64_t n,
    float* __restrict__ part, unsigned int* __restrict__ ticket, float* __restrict__ coef, float max_norm) {
  float s = 0.f;
  const int64_t span = (int64_t)THREADS * ILP;
  for (int64_t base = (int64_t)blockIdx.x * span + threadIdx.x; base < n; base += (int64_t)gridDim.x * span) {
    float r[ILP];
#pragma unroll
    for (int u = 0; u < ILP; ++u) {
      const int64_t i = base + (int64_t)u * THREADS;
      r[u] = i < n ? g[i] : 0.f;
    }
#pragma unroll
    for (int u = 0; u < ILP; ++u) s += r[u] * r[u];
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  __shared__ float sh[THREADS / 32];
  __shared__ bool last;
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < THREADS / 32; ++w) t += sh[w];
    part[blockIdx.x] = t;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x < 32) {
    __threadfence();
    double tot = 0.0;
    // volatile: read the other blocks' partials from memory, not from a stale cache line
    const volatile float* vp = part;
    for (unsigned int k = threadIdx.x; k < gridDim.x; k += 32) tot += vp[k];
    for (int o = 16; o > 0; o >>= 1) tot += __shfl_xor_sync(0xffffffffu, tot, o);
    if (threadIdx.x == 0) coef[0] = fminf(max_norm / ((float)sqrt(tot) + 1e-6f), 1.0f);
  }
}
__global__ void __launch_bounds__(THREADS) adamw_ilp_kernel(const float* __restrict__ p, const float* __restrict__ g,
    const float* __restrict__ m, const float* __restrict__ v, float* __restrict__ po, float* __restrict__ mo,
    float* __restrict__ vo, int64_t n, const float* __restrict__ coefp, float b1, float omb1, float b2, float omb2,
    float decay, float step_size, float bc2_sqrt, float eps) {
  const float coef = coefp[0];
  const int64_t base = (int64_t)blockIdx.x * THREADS * ILP + threadIdx.x;
  float rp[ILP], rg[ILP], rm[ILP], rv[ILP];
#pragma unroll
  for (int u = 0; u < ILP; ++u) {
    const int64_t i = base + (int64_t)u * THREADS;
    const bool ok = i < n;
    rp[u] = ok ? p[i] : 0.f; rg[u] = ok ? g[i] : 0.f; rm[u] = ok ? m[i] : 0.f; rv[u] = ok ? v[i] : 0.f;
  }
#pragma unroll
  for (int u = 0; u < ILP; ++u) {
    const int64_t i = base + (int64_t)u * THREADS;
    if (i < n) {
      const float gg = rg[u] * coef;
      const float mn = rm[u] * b1 + gg * omb1;
      const float vn = rv[u] * b2 + (gg * gg) * omb2;
      mo[i] = mn;
      vo[i] = vn;
      po[i] = rp[u] * decay - step_size * (mn / (sqrtf(vn) / bc2_sqrt + eps));
    }
  }
}

static void check(const torch::Tensor& t, int64_t n, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32, name, " must be a float32 CUDA tensor");
  TORCH_CHECK(t.is_contiguous() && t.numel() == n, name, " must be contiguous with as many elements as param");
}

std::vector<torch::Tensor> adamw_clip_last(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v,
                                           double lr, double beta1, double beta2, double eps, double wd,
                                           double max_norm, int64_t step) {
  const int64_t n = p.numel();
  check(p, n, "param"); check(g, n, "grad"); check(m, n, "exp_avg"); check(v, n, "exp_avg_sq");
  auto p_out = torch::empty_like(p), m_out = torch::empty_like(m), v_out = torch::empty_like(v);
  if (n == 0) return {p_out, m_out, v_out};
  const int64_t span = (int64_t)THREADS * ILP;
  const int64_t nblk = (n + span - 1) / span;
  const int rblocks = (int)(nblk < 132 * 8 ? nblk : 132 * 8);
  auto scratch = torch::empty({(int64_t)rblocks + 2}, p.options());
  float* part = scratch.data_ptr<float>();
  float* coef = part + rblocks;
  unsigned int* ticket = reinterpret_cast<unsigned int*>(part + rblocks + 1);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  ticket_zero_kernel<<<1, 32, 0, stream>>>(ticket);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  sumsq_last_block_kernel<<<rblocks, THREADS, 0, stream>>>(g.data_ptr<float>(), n, part, ticket, coef, (float)max_norm);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  TORCH_CHECK(nblk < (int64_t)INT32_MAX, "too many elements");
  adamw_ilp_kernel<<<(unsigned)nblk, THREADS, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(),
      v.data_ptr<float>(), p_out.data_ptr<float>(), m_out.data_ptr<float>(), v_out.data_ptr<float>(), n, coef,
      (float)beta1, (float)(1.0 - beta1), (float)beta2, (float)(1.0 - beta2), (float)(1.0 - lr * wd),
      (float)(lr / (1.0 - std::pow(beta1, (double)step))), (float)std::sqrt(1.0 - std::pow(beta2, (double)step)),
      (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, m_out, v_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> adamw_clip_last(torch::Tensor p, torch::Tensor g, torch::Tensor m, "
           "torch::Tensor v, double lr, double beta1, double beta2, double eps, double wd, double max_norm, "
           "int64_t step);")

_ext = load_inline(name="t2c_optim_adamw_clip_last", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["adamw_clip_last"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, betas, eps, weight_decay, max_norm, step):
        super().__init__()
        self.lr, self.beta1, self.beta2 = float(lr), float(betas[0]), float(betas[1])
        self.eps, self.weight_decay, self.max_norm, self.step = float(eps), float(weight_decay), float(max_norm), int(step)

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return _ext.adamw_clip_last(param, grad, exp_avg, exp_avg_sq, self.lr, self.beta1, self.beta2, self.eps,
                                    self.weight_decay, self.max_norm, self.step)
