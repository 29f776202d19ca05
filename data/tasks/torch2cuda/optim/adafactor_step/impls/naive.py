# strategy: naive (weak) — one thread per row and one per column summing sequentially (double), single-thread means, one thread per row for the update's sum of squares, then the update per element
import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__global__ void af_rows_kernel(const float* g, const float* r, float* r_out, int64_t rows, int64_t cols,
                               float eps1, float b2, float omb2) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  double s = 0.0;
  for (int64_t j = 0; j < cols; ++j) { const float x = g[i * cols + j]; s += (double)(x * x + eps1); }
  r_out[i] = r[i] * b2 + (float)(s / (double)cols) * omb2;
}
__global__ void af_cols_kernel(const float* g, const float* c, float* c_out, int64_t rows, int64_t cols,
                               float eps1, float b2, float omb2) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  double s = 0.0;
  for (int64_t i = 0; i < rows; ++i) { const float x = g[i * cols + j]; s += (double)(x * x + eps1); }
  c_out[j] = c[j] * b2 + (float)(s / (double)rows) * omb2;
}
__global__ void af_mean_kernel(const float* x, int64_t n, float* out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  out[0] = (float)(s / (double)n);
}
__global__ void af_usq_rows_kernel(const float* g, const float* r, const float* c, const float* rmean, double* rowsq,
                                   int64_t rows, int64_t cols) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float mr = rmean[0];
  double s = 0.0;
  for (int64_t j = 0; j < cols; ++j) {
    const float u = g[i * cols + j] / sqrtf(r[i] * c[j] / mr);
    s += (double)u * u;
  }
  rowsq[i] = s;
}
__global__ void af_clip_kernel(const double* rowsq, int64_t rows, int64_t n, float clip, float* div) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  double s = 0.0;
  for (int64_t i = 0; i < rows; ++i) s += rowsq[i];
  const float rms = (float)sqrt(s / (double)n);
  const float d = rms / clip;
  div[0] = d > 1.f ? d : 1.f;
}
__global__ void af_apply_kernel(const float* p, const float* g, const float* r, const float* c, const float* rmean,
                                const float* div, float* p_out, int64_t n, int64_t cols, float lr, float wd) {
  const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int64_t i = k / cols, j = k % cols;
  const float u = (g[k] / sqrtf(r[i] * c[j] / rmean[0])) / div[0];
  p_out[k] = p[k] - lr * (u + wd * p[k]);
}

static void check(const torch::Tensor& t, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32 && t.is_contiguous(), name,
              " must be a contiguous float32 CUDA tensor");
}

std::vector<torch::Tensor> adafactor_naive(torch::Tensor p, torch::Tensor g, torch::Tensor r, torch::Tensor c,
                                           double lr, double eps1, double clip, double beta2, double wd) {
  check(p, "param"); check(g, "grad"); check(r, "row_state"); check(c, "col_state");
  TORCH_CHECK(p.dim() == 2 && g.sizes() == p.sizes(), "param and grad must be (rows, cols)");
  const int64_t rows = p.size(0), cols = p.size(1), n = p.numel();
  TORCH_CHECK(r.numel() == rows && c.numel() == cols, "state sizes do not match");
  auto p_out = torch::empty_like(p), r_out = torch::empty_like(r), c_out = torch::empty_like(c);
  if (n == 0) return {p_out, r_out, c_out};
  auto scal = torch::empty({2}, p.options());
  auto rowsq = torch::empty({rows}, p.options().dtype(torch::kFloat64));
  float* rmean = scal.data_ptr<float>();
  float* div = rmean + 1;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float b2 = (float)beta2, omb2 = (float)(1.0 - beta2);
  af_rows_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(g.data_ptr<float>(), r.data_ptr<float>(),
      r_out.data_ptr<float>(), rows, cols, (float)eps1, b2, omb2);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  af_cols_kernel<<<(unsigned)((cols + 127) / 128), 128, 0, stream>>>(g.data_ptr<float>(), c.data_ptr<float>(),
      c_out.data_ptr<float>(), rows, cols, (float)eps1, b2, omb2);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  af_mean_kernel<<<1, 32, 0, stream>>>(r_out.data_ptr<float>(), rows, rmean);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  af_usq_rows_kernel<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(g.data_ptr<float>(),
      r_out.data_ptr<float>(), c_out.data_ptr<float>(), rmean, rowsq.data_ptr<double>(), rows, cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  af_clip_kernel<<<1, 32, 0, stream>>>(rowsq.data_ptr<double>(), rows, n, (float)clip, div);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  af_apply_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(),
      r_out.data_ptr<float>(), c_out.data_ptr<float>(), rmean, div, p_out.data_ptr<float>(), n, cols, (float)lr,
      (float)wd);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, r_out, c_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> adafactor_naive(torch::Tensor p, torch::Tensor g, torch::Tensor r, "
           "torch::Tensor c, double lr, double eps1, double clip, double beta2, double wd);")

_ext = load_inline(name="t2c_optim_adafactor_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["adafactor_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, eps1, clip_threshold, decay_rate, weight_decay, step):
        super().__init__()
        self.lr, self.eps1, self.clip_threshold = float(lr), float(eps1), float(clip_threshold)
        self.beta2 = 1.0 - math.pow(step, decay_rate)
        self.weight_decay = float(weight_decay)

    def forward(self, param, grad, row_state, col_state):
        return _ext.adafactor_naive(param, grad, row_state, col_state, self.lr, self.eps1, self.clip_threshold,
                                    self.beta2, self.weight_decay)
