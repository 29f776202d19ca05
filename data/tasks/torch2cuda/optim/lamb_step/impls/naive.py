# strategy: naive (weak) — three kernels: the Adam direction per element into a temporary, one thread per layer summing both squared norms sequentially (double), then the update per element
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__global__ void lamb_dir_kernel(const float* p, const float* g, const float* m, const float* v, float* m_out,
                                float* v_out, float* u_out, int64_t n, float b1, float omb1, float b2, float omb2,
                                float bc1, float bc2, float eps, float wd) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float gi = g[i];
  const float mn = m[i] * b1 + gi * omb1;
  const float vn = v[i] * b2 + (gi * gi) * omb2;
  m_out[i] = mn;
  v_out[i] = vn;
  u_out[i] = (mn / bc1) / (sqrtf(vn / bc2) + eps) + wd * p[i];
}
__global__ void lamb_trust_kernel(const float* p, const float* u, float* scale, int64_t rows, int64_t cols, float lr) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double sp = 0.0, su = 0.0;
  for (int64_t j = 0; j < cols; ++j) {
    const double a = p[r * cols + j], b = u[r * cols + j];
    sp += a * a;
    su += b * b;
  }
  const float wn = (float)sqrt(sp), un = (float)sqrt(su);
  const float trust = (wn > 0.f && un > 0.f) ? wn / un : 1.f;
  scale[r] = lr * trust;
}
__global__ void lamb_apply_kernel(const float* p, const float* u, const float* scale, float* p_out, int64_t n,
                                  int64_t cols) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p_out[i] = p[i] - scale[i / cols] * u[i];
}

static void check(const torch::Tensor& t, const torch::Tensor& ref, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32, name, " must be a float32 CUDA tensor");
  TORCH_CHECK(t.is_contiguous() && t.sizes() == ref.sizes(), name, " must be contiguous and shaped like param");
}

std::vector<torch::Tensor> lamb_naive(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v,
                                      double lr, double beta1, double beta2, double eps, double wd, int64_t step) {
  TORCH_CHECK(p.dim() == 2, "param must be (num_layers, layer_size)");
  check(p, p, "param"); check(g, p, "grad"); check(m, p, "exp_avg"); check(v, p, "exp_avg_sq");
  const int64_t rows = p.size(0), cols = p.size(1), n = p.numel();
  auto p_out = torch::empty_like(p), m_out = torch::empty_like(m), v_out = torch::empty_like(v);
  if (n == 0) return {p_out, m_out, v_out};
  auto u = torch::empty_like(p);
  auto scale = torch::empty({rows}, p.options());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 256;
  const unsigned blocks = (unsigned)((n + threads - 1) / threads);
  lamb_dir_kernel<<<blocks, threads, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(),
      v.data_ptr<float>(), m_out.data_ptr<float>(), v_out.data_ptr<float>(), u.data_ptr<float>(), n, (float)beta1,
      (float)(1.0 - beta1), (float)beta2, (float)(1.0 - beta2), (float)(1.0 - std::pow(beta1, (double)step)),
      (float)(1.0 - std::pow(beta2, (double)step)), (float)eps, (float)wd);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  lamb_trust_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(p.data_ptr<float>(), u.data_ptr<float>(),
      scale.data_ptr<float>(), rows, cols, (float)lr);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  lamb_apply_kernel<<<blocks, threads, 0, stream>>>(p.data_ptr<float>(), u.data_ptr<float>(), scale.data_ptr<float>(),
      p_out.data_ptr<float>(), n, cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, m_out, v_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> lamb_naive(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v, "
           "double lr, double beta1, double beta2, double eps, double wd, int64_t step);")

_ext = load_inline(name="t2c_optim_lamb_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["lamb_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, betas, eps, weight_decay, step):
        super().__init__()
        self.lr, self.beta1, self.beta2 = float(lr), float(betas[0]), float(betas[1])
        self.eps, self.weight_decay, self.step = float(eps), float(weight_decay), int(step)

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return _ext.lamb_naive(param, grad, exp_avg, exp_avg_sq, self.lr, self.beta1, self.beta2, self.eps,
                               self.weight_decay, self.step)
