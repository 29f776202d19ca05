# strategy: block_per_row — a block owns whole rows (grid-stride over rows): thread 0 evaluates the row's logit(q) once and shares it through shared memory, then the block sweeps the row with coalesced scalar loads, two elements in flight per thread
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ float logit_c(float x, float lo, float hi) {
  const float z = fminf(fmaxf(x, lo), hi);
  return logf(z / (1.0f - z));
}

__global__ void logit_row_kernel(const float* __restrict__ p, const float* __restrict__ q, float* __restrict__ y,
                                 int64_t rows, int64_t cols, float lo, float hi) {
  __shared__ float lq;
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    if (threadIdx.x == 0) lq = logit_c(q[r], lo, hi);
    __syncthreads();
    const float base = lq;
    const float* pr = p + r * cols;
    float* yr = y + r * cols;
    const int64_t step = blockDim.x;
    int64_t j = threadIdx.x;
    for (; j + step < cols; j += 2 * step) {
      const float a = pr[j], b = pr[j + step];
      yr[j] = logit_c(a, lo, hi) - base;
      yr[j + step] = logit_c(b, lo, hi) - base;
    }
    if (j < cols) yr[j] = logit_c(pr[j], lo, hi) - base;
    __syncthreads();  // lq is rewritten for the next row
  }
}

torch::Tensor logit_row_forward(torch::Tensor p, torch::Tensor q, double eps) {
  TORCH_CHECK(p.is_cuda() && q.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(p.scalar_type() == torch::kFloat32 && q.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(p.dim() == 2, "p must be 2-D");
  auto pc = p.contiguous();
  auto qc = q.contiguous();
  const int64_t rows = pc.size(0), cols = pc.size(1);
  TORCH_CHECK(qc.numel() == rows, "q must have one entry per row");
  auto out = torch::empty_like(pc);
  if (rows == 0 || cols == 0) return out;
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  int64_t blocks = rows;
  if (blocks > (int64_t)sms * 8) blocks = (int64_t)sms * 8;
  const int threads = cols >= 512 ? 256 : 64;
  const float lo = (float)eps;
  const float hi = 1.0f - lo;
  logit_row_kernel<<<(unsigned)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      pc.data_ptr<float>(), qc.data_ptr<float>(), out.data_ptr<float>(), rows, cols, lo, hi);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor logit_row_forward(torch::Tensor p, torch::Tensor q, double eps);"

_ext = load_inline(name="t2c_pw_logit_row", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["logit_row_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, p, q):
        return _ext.logit_row_forward(p, q, float(self.eps))
