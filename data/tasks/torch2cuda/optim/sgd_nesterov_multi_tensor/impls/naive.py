# strategy: naive (weak) — two kernels per tensor (new momentum buffer, then the parameter reading it back), six launches, one scalar element per thread
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__global__ void sgd_buf_kernel(const float* p, const float* g, const float* buf, float* buf_out, int64_t n,
                               float momentum, float wd) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  buf_out[i] = momentum * buf[i] + (g[i] + wd * p[i]);
}
__global__ void sgd_param_kernel(const float* p, const float* g, const float* buf_new, float* p_out, int64_t n,
                                 float lr, float momentum, float wd) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float gg = g[i] + wd * p[i];
  p_out[i] = p[i] - lr * (gg + momentum * buf_new[i]);
}

static void check(const torch::Tensor& t, const torch::Tensor& ref) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32 && t.is_contiguous(), "float32 contiguous CUDA tensors");
  TORCH_CHECK(t.sizes() == ref.sizes(), "a gradient or buffer is not shaped like its parameter");
}

std::vector<torch::Tensor> sgd_multi_naive(std::vector<torch::Tensor> ts, double lr, double momentum, double wd) {
  TORCH_CHECK(ts.size() == 9, "nine tensors: (param, grad, buf) x 3");
  std::vector<torch::Tensor> params, bufs;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  for (int t = 0; t < 3; ++t) {
    const torch::Tensor &p = ts[3 * t], &g = ts[3 * t + 1], &b = ts[3 * t + 2];
    check(p, p); check(g, p); check(b, p);
    auto p_out = torch::empty_like(p), b_out = torch::empty_like(b);
    const int64_t n = p.numel();
    if (n > 0) {
      const unsigned blocks = (unsigned)((n + 255) / 256);
      sgd_buf_kernel<<<blocks, 256, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(), b.data_ptr<float>(),
                                                 b_out.data_ptr<float>(), n, (float)momentum, (float)wd);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
      sgd_param_kernel<<<blocks, 256, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(), b_out.data_ptr<float>(),
                                                   p_out.data_ptr<float>(), n, (float)lr, (float)momentum, (float)wd);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
    params.push_back(p_out);
    bufs.push_back(b_out);
  }
  return {params[0], params[1], params[2], bufs[0], bufs[1], bufs[2]};
}
"""

cpp_src = "std::vector<torch::Tensor> sgd_multi_naive(std::vector<torch::Tensor> ts, double lr, double momentum, double wd);"

_ext = load_inline(name="t2c_optim_sgd_multi_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sgd_multi_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, momentum, weight_decay):
        super().__init__()
        self.lr, self.momentum, self.weight_decay = float(lr), float(momentum), float(weight_decay)

    def forward(self, w, w_grad, w_buf, b, b_grad, b_buf, e, e_grad, e_buf):
        return _ext.sgd_multi_naive([w, w_grad, w_buf, b, b_grad, b_buf, e, e_grad, e_buf], self.lr, self.momentum,
                                    self.weight_decay)
