# strategy: naive (weak) — three kernels (first moment, second moment, then the parameter reading both back), one scalar element per thread, bias corrections recomputed per thread in double
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__global__ void adam_m_kernel(const float* p, const float* g, const float* m, float* m_out, int64_t n,
                              float b1, float omb1, float wd) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float gg = g[i] + wd * p[i];
  m_out[i] = m[i] * b1 + gg * omb1;
}
__global__ void adam_v_kernel(const float* p, const float* g, const float* v, float* v_out, int64_t n,
                              float b2, float omb2, float wd) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float gg = g[i] + wd * p[i];
  v_out[i] = v[i] * b2 + (gg * gg) * omb2;
}
__global__ void adam_p_kernel(const float* p, const float* m_new, const float* v_new, float* p_out, int64_t n,
                              double lr, double b1, double b2, double eps, int step) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float step_size = (float)(lr / (1.0 - pow(b1, (double)step)));
  const float bc2_sqrt = (float)sqrt(1.0 - pow(b2, (double)step));
  const float denom = sqrtf(v_new[i]) / bc2_sqrt + (float)eps;
  p_out[i] = p[i] - step_size * (m_new[i] / denom);
}

static void check(const torch::Tensor& t, int64_t n, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32, name, " must be a float32 CUDA tensor");
  TORCH_CHECK(t.is_contiguous() && t.numel() == n, name, " must be contiguous with as many elements as param");
}

std::vector<torch::Tensor> adam_naive(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v,
                                      double lr, double beta1, double beta2, double eps, double wd, int64_t step) {
  const int64_t n = p.numel();
  check(p, n, "param"); check(g, n, "grad"); check(m, n, "exp_avg"); check(v, n, "exp_avg_sq");
  auto p_out = torch::empty_like(p), m_out = torch::empty_like(m), v_out = torch::empty_like(v);
  if (n == 0) return {p_out, m_out, v_out};
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 256;
  const unsigned blocks = (unsigned)((n + threads - 1) / threads);
  adam_m_kernel<<<blocks, threads, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(),
      m_out.data_ptr<float>(), n, (float)beta1, (float)(1.0 - beta1), (float)wd);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  adam_v_kernel<<<blocks, threads, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(), v.data_ptr<float>(),
      v_out.data_ptr<float>(), n, (float)beta2, (float)(1.0 - beta2), (float)wd);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  adam_p_kernel<<<blocks, threads, 0, stream>>>(p.data_ptr<float>(), m_out.data_ptr<float>(), v_out.data_ptr<float>(),
      p_out.data_ptr<float>(), n, lr, beta1, beta2, eps, (int)step);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, m_out, v_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> adam_naive(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v, "
           "double lr, double beta1, double beta2, double eps, double wd, int64_t step);")

_ext = load_inline(name="t2c_optim_adam_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["adam_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, betas, eps, weight_decay, step):
        super().__init__()
        self.lr, self.beta1, self.beta2 = float(lr), float(betas[0]), float(betas[1])
        self.eps, self.weight_decay, self.step = float(eps), float(weight_decay), int(step)

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return _ext.adam_naive(param, grad, exp_avg, exp_avg_sq, self.lr, self.beta1, self.beta2, self.eps,
                               self.weight_decay, self.step)
