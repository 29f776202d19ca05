# strategy: naive (weak) — the gradient norm by one block (a single SM) with a shared-memory tree, the clip coefficient by one thread, then the moments and the parameter in separate kernels (the parameter kernel reads both moments back)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__global__ void clip_norm_single_block_kernel(const float* g, int64_t n, float max_norm, float* coef) {
  __shared__ double sh[1024];
  double s = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += (double)g[i] * g[i];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const float total = (float)sqrt(sh[0]);
    coef[0] = fminf(max_norm / (total + 1e-6f), 1.0f);
  }
}
__global__ void moments_kernel(const float* g, const float* m, const float* v, const float* coef, float* m_out,
                               float* v_out, int64_t n, float b1, float omb1, float b2, float omb2) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float gg = g[i] * coef[0];
  m_out[i] = m[i] * b1 + gg * omb1;
  v_out[i] = v[i] * b2 + (gg * gg) * omb2;
}
__global__ void param_kernel(const float* p, const float* m_new, const float* v_new, float* p_out, int64_t n,
                             float decay, float step_size, float bc2_sqrt, float eps) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p_out[i] = p[i] * decay - step_size * (m_new[i] / (sqrtf(v_new[i]) / bc2_sqrt + eps));
}

static void check(const torch::Tensor& t, int64_t n, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32, name, " must be a float32 CUDA tensor");
  TORCH_CHECK(t.is_contiguous() && t.numel() == n, name, " must be contiguous with as many elements as param");
}

std::vector<torch::Tensor> adamw_clip_naive(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v,
                                            double lr, double beta1, double beta2, double eps, double wd,
                                            double max_norm, int64_t step) {
  const int64_t n = p.numel();
  check(p, n, "param"); check(g, n, "grad"); check(m, n, "exp_avg"); check(v, n, "exp_avg_sq");
  auto p_out = torch::empty_like(p), m_out = torch::empty_like(m), v_out = torch::empty_like(v);
  if (n == 0) return {p_out, m_out, v_out};
  auto coef = torch::empty({1}, p.options());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  clip_norm_single_block_kernel<<<1, 1024, 0, stream>>>(g.data_ptr<float>(), n, (float)max_norm, coef.data_ptr<float>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const unsigned blocks = (unsigned)((n + 255) / 256);
  moments_kernel<<<blocks, 256, 0, stream>>>(g.data_ptr<float>(), m.data_ptr<float>(), v.data_ptr<float>(),
      coef.data_ptr<float>(), m_out.data_ptr<float>(), v_out.data_ptr<float>(), n, (float)beta1,
      (float)(1.0 - beta1), (float)beta2, (float)(1.0 - beta2));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  param_kernel<<<blocks, 256, 0, stream>>>(p.data_ptr<float>(), m_out.data_ptr<float>(), v_out.data_ptr<float>(),
      p_out.data_ptr<float>(), n, (float)(1.0 - lr * wd), (float)(lr / (1.0 - std::pow(beta1, (double)step))),
      (float)std::sqrt(1.0 - std::pow(beta2, (double)step)), (float)eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, m_out, v_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> adamw_clip_naive(torch::Tensor p, torch::Tensor g, torch::Tensor m, "
           "torch::Tensor v, double lr, double beta1, double beta2, double eps, double wd, double max_norm, "
           "int64_t step);")

_ext = load_inline(name="t2c_optim_adamw_clip_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["adamw_clip_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, betas, eps, weight_decay, max_norm, step):
        super().__init__()
        self.lr, self.beta1, self.beta2 = float(lr), float(betas[0]), float(betas[1])
        self.eps, self.weight_decay, self.max_norm, self.step = float(eps), float(weight_decay), float(max_norm), int(step)

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return _ext.adamw_clip_naive(param, grad, exp_avg, exp_avg_sq, self.lr, self.beta1, self.beta2, self.eps,
                                     self.weight_decay, self.max_norm, self.step)
