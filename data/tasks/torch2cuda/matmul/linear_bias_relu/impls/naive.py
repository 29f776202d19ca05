# strategy: naive (weak) — one thread per output element computing its dot product straight from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// one thread per output element, dot product straight from global memory
__global__ void mm_naive_kernel(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ bias, float* __restrict__ C, int64_t M, int64_t N, int64_t K, int64_t sAb, int64_t sAm, int64_t sAk, int64_t sBb, int64_t sBk, int64_t sBn, bool relu) {
  const int64_t n = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t m = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  const int64_t b = blockIdx.z;
  if (m >= M || n >= N) return;
  const float* a = A + b * sAb + m * sAm;
  const float* bb = B + b * sBb + n * sBn;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc = fmaf(a[k * sAk], bb[k * sBk], acc);
  if (bias) acc += bias[n];
  if (relu) acc = fmaxf(acc, 0.0f);
  C[(b * M + m) * N + n] = acc;
}

torch::Tensor linear_bias_relu_naive_forward(torch::Tensor x, torch::Tensor W, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(W.is_cuda(), "W must be a CUDA tensor");
  TORCH_CHECK(W.scalar_type() == torch::kFloat32, "W must be float32");
  TORCH_CHECK(bias.is_cuda(), "bias must be a CUDA tensor");
  TORCH_CHECK(bias.scalar_type() == torch::kFloat32, "bias must be float32");
  TORCH_CHECK(x.dim() == 2 && W.dim() == 2 && x.size(1) == W.size(1) && bias.numel() == W.size(0), "shape mismatch");
  auto a = x.contiguous();
  auto w = W.contiguous();
  auto bs = bias.contiguous();
  const int64_t M = a.size(0), K = a.size(1), N = w.size(0);
  auto out = torch::empty({M, N}, a.options());
  if (M == 0 || N == 0) return out;
  const int64_t BATCH = 1;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  {
    dim3 block(16, 16);
    dim3 grid((unsigned)((N + 15) / 16), (unsigned)((M + 15) / 16), (unsigned)BATCH);
    mm_naive_kernel<<<grid, block, 0, stream>>>(a.data_ptr<float>(), w.data_ptr<float>(), bs.data_ptr<float>(), out.data_ptr<float>(), M, N, K, 0, K, 1, 0, 1, K, true);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor linear_bias_relu_naive_forward(torch::Tensor x, torch::Tensor W, torch::Tensor bias);"

_ext = load_inline(name="t2c_linear_bias_relu_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["linear_bias_relu_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return _ext.linear_bias_relu_naive_forward(x, self.linear.weight, self.linear.bias)
