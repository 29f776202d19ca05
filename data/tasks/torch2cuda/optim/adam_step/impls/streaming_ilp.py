# strategy: streaming_ilp — scalar coalesced loads, 8 independent elements per thread issued before any math (memory-level parallelism without alignment requirements), evict-first streaming loads and stores (__ldcs/__stcs)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define ILP 8

__global__ void adam_ilp_kernel(const float* __restrict__ p, const float* __restrict__ g,
                                const float* __restrict__ m, const float* __restrict__ v,
                                float* __restrict__ po, float* __restrict__ mo, float* __restrict__ vo, int64_t n,
                                float b1, float omb1, float b2, float omb2, float wd, float step_size,
                                float bc2_sqrt, float eps) {
  // a block covers ILP * blockDim consecutive elements; element k of a thread is base + k * blockDim
  const int64_t base = (int64_t)blockIdx.x * blockDim.x * ILP + threadIdx.x;
  float rp[ILP], rg[ILP], rm[ILP], rv[ILP];
#pragma unroll
  for (int k = 0; k < ILP; ++k) {
    const int64_t i = base + (int64_t)k * blockDim.x;
    if (i < n) { rp[k] = __ldcs(p + i); rg[k] = __ldcs(g + i); rm[k] = __ldcs(m + i); rv[k] = __ldcs(v + i); }
    else { rp[k] = 0.f; rg[k] = 0.f; rm[k] = 0.f; rv[k] = 0.f; }
  }
#pragma unroll
  for (int k = 0; k < ILP; ++k) {
    const int64_t i = base + (int64_t)k * blockDim.x;
    if (i < n) {
      const float gg = rg[k] + wd * rp[k];
      const float mn = rm[k] * b1 + gg * omb1;
      const float vn = rv[k] * b2 + (gg * gg) * omb2;
      const float pn = rp[k] - step_size * (mn / (sqrtf(vn) / bc2_sqrt + eps));
      __stcs(mo + i, mn); __stcs(vo + i, vn); __stcs(po + i, pn);
    }
  }
}

static void check(const torch::Tensor& t, int64_t n, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32, name, " must be a float32 CUDA tensor");
  TORCH_CHECK(t.is_contiguous() && t.numel() == n, name, " must be contiguous with as many elements as param");
}

std::vector<torch::Tensor> adam_ilp(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v,
                                    double lr, double beta1, double beta2, double eps, double wd, int64_t step) {
  const int64_t n = p.numel();
  check(p, n, "param"); check(g, n, "grad"); check(m, n, "exp_avg"); check(v, n, "exp_avg_sq");
  auto p_out = torch::empty_like(p), m_out = torch::empty_like(m), v_out = torch::empty_like(v);
  if (n == 0) return {p_out, m_out, v_out};
  const float step_size = (float)(lr / (1.0 - std::pow(beta1, (double)step)));
  const float bc2_sqrt = (float)std::sqrt(1.0 - std::pow(beta2, (double)step));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  const int64_t per_block = (int64_t)threads * ILP;
  adam_ilp_kernel<<<(unsigned)((n + per_block - 1) / per_block), threads, 0, stream>>>(
      p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(), v.data_ptr<float>(), p_out.data_ptr<float>(),
      m_out.data_ptr<float>(), v_out.data_ptr<float>(), n, (float)beta1, (float)(1.0 - beta1), (float)beta2,
      (float)(1.0 - beta2), (float)wd, step_size, bc2_sqrt, (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, m_out, v_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> adam_ilp(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v, "
           "double lr, double beta1, double beta2, double eps, double wd, int64_t step);")

_ext = load_inline(name="t2c_optim_adam_ilp", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["adam_ilp"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, betas, eps, weight_decay, step):
        super().__init__()
        self.lr, self.beta1, self.beta2 = float(lr), float(betas[0]), float(betas[1])
        self.eps, self.weight_decay, self.step = float(eps), float(weight_decay), int(step)

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return _ext.adam_ilp(param, grad, exp_avg, exp_avg_sq, self.lr, self.beta1, self.beta2, self.eps,
                             self.weight_decay, self.step)
