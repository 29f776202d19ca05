# strategy: naive (weak) — three one-thread-per-output GEMMs from global memory plus a separate SwiGLU elementwise kernel, all intermediates materialised
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

__global__ void swiglu_kernel(const float* a, const float* b, float* h, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { const float g = a[i]; h[i] = g / (1.0f + expf(-g)) * b[i]; }
}
static void naive_gemm(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K, int64_t sBk, int64_t sBn, cudaStream_t stream) {
  dim3 block(16, 16);
  dim3 grid((unsigned)((N + 15) / 16), (unsigned)((M + 15) / 16), 1);
  mm_naive_kernel<<<grid, block, 0, stream>>>(A, B, nullptr, C, M, N, K, 0, K, 1, 0, sBk, sBn, false);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
torch::Tensor swiglu_naive_forward(torch::Tensor x, torch::Tensor w1, torch::Tensor w3, torch::Tensor w2) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w1.is_cuda(), "w1 must be a CUDA tensor");
  TORCH_CHECK(w1.scalar_type() == torch::kFloat32, "w1 must be float32");
  TORCH_CHECK(w3.is_cuda(), "w3 must be a CUDA tensor");
  TORCH_CHECK(w3.scalar_type() == torch::kFloat32, "w3 must be float32");
  TORCH_CHECK(w2.is_cuda(), "w2 must be a CUDA tensor");
  TORCH_CHECK(w2.scalar_type() == torch::kFloat32, "w2 must be float32");
  auto xc = x.contiguous(); auto w1c = w1.contiguous(); auto w3c = w3.contiguous(); auto w2c = w2.contiguous();
  const int64_t T = xc.size(0), D = xc.size(1), Hd = w1c.size(0);
  TORCH_CHECK(xc.dim() == 2 && w1c.size(1) == D && w3c.size(0) == Hd && w3c.size(1) == D && w2c.size(0) == D && w2c.size(1) == Hd, "shape mismatch");
  auto out = torch::empty({T, D}, xc.options());
  if (T == 0 || D == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  auto a = torch::empty({T, Hd}, xc.options());
  auto b = torch::empty({T, Hd}, xc.options());
  auto h = torch::empty({T, Hd}, xc.options());
  // x @ W1^T: B(k, n) = W1[n, k]
  naive_gemm(xc.data_ptr<float>(), w1c.data_ptr<float>(), a.data_ptr<float>(), T, Hd, D, 1, D, stream);
  naive_gemm(xc.data_ptr<float>(), w3c.data_ptr<float>(), b.data_ptr<float>(), T, Hd, D, 1, D, stream);
  swiglu_kernel<<<(unsigned)((T * Hd + 255) / 256), 256, 0, stream>>>(a.data_ptr<float>(), b.data_ptr<float>(), h.data_ptr<float>(), T * Hd);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  naive_gemm(h.data_ptr<float>(), w2c.data_ptr<float>(), out.data_ptr<float>(), T, D, Hd, 1, Hd, stream);
  return out;
}
"""

cpp_src = "torch::Tensor swiglu_naive_forward(torch::Tensor x, torch::Tensor w1, torch::Tensor w3, torch::Tensor w2);"

_ext = load_inline(name="t2c_swiglu_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["swiglu_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return _ext.swiglu_naive_forward(x, self.w1.weight, self.w3.weight, self.w2.weight)
