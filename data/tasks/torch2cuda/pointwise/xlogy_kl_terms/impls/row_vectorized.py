# strategy: row_vectorized — one block per row (grid-stride over rows), float4 loads/stores along the row when the row length is a multiple of 4 and pointers are aligned, q read through the read-only cache (L2-resident across rows); a scalar column loop otherwise
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ float klterm(float a, float b) {
  return a == 0.0f ? 0.0f : a * logf(a) - a * logf(b);
}

__global__ void kl_row_vec4_kernel(const float4* __restrict__ p, const float4* __restrict__ q, float4* __restrict__ y,
                                   int64_t rows, int64_t qcols) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const float4* pr = p + r * qcols;
    float4* yr = y + r * qcols;
    for (int64_t j = threadIdx.x; j < qcols; j += blockDim.x) {
      const float4 a = pr[j];
      const float4 b = __ldg(q + j);
      yr[j] = make_float4(klterm(a.x, b.x), klterm(a.y, b.y), klterm(a.z, b.z), klterm(a.w, b.w));
    }
  }
}

__global__ void kl_row_scalar_kernel(const float* __restrict__ p, const float* __restrict__ q, float* __restrict__ y,
                                     int64_t rows, int64_t cols) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* pr = p + r * cols;
    float* yr = y + r * cols;
    for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = klterm(pr[j], __ldg(q + j));
  }
}

torch::Tensor kl_row_forward(torch::Tensor p, torch::Tensor q) {
  TORCH_CHECK(p.is_cuda() && q.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(p.scalar_type() == torch::kFloat32 && q.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(p.dim() == 2, "p must be 2-D");
  auto pc = p.contiguous();
  auto qc = q.contiguous();
  const int64_t rows = pc.size(0), cols = pc.size(1);
  TORCH_CHECK(qc.numel() == cols, "q must have one entry per column");
  auto out = torch::empty_like(pc);
  if (rows == 0 || cols == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  int64_t blocks = rows;
  if (blocks > (int64_t)sms * 16) blocks = (int64_t)sms * 16;
  const float* pp = pc.data_ptr<float>();
  const float* qp = qc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  const bool aligned = ((reinterpret_cast<uintptr_t>(pp) | reinterpret_cast<uintptr_t>(qp) |
                         reinterpret_cast<uintptr_t>(yp)) & 15) == 0;
  if (aligned && cols % 4 == 0) {
    const int64_t qcols = cols / 4;
    const int threads = qcols >= 256 ? 256 : (int)((qcols + 31) / 32 * 32);
    kl_row_vec4_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
        reinterpret_cast<const float4*>(pp), reinterpret_cast<const float4*>(qp), reinterpret_cast<float4*>(yp), rows, qcols);
  } else {
    const int threads = cols >= 256 ? 256 : (int)((cols + 31) / 32 * 32);
    kl_row_scalar_kernel<<<(unsigned)blocks, threads, 0, stream>>>(pp, qp, yp, rows, cols);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor kl_row_forward(torch::Tensor p, torch::Tensor q);"

_ext = load_inline(name="t2c_pw_xlogy_kl_row", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["kl_row_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, p, q):
        return _ext.kl_row_forward(p, q)
