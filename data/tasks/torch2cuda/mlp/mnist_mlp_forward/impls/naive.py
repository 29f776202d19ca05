# strategy: naive (weak) — three one-thread-per-output GEMM launches straight from global memory with bias/ReLU in the epilogue
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

static void gemm(const float* A, const float* W, const float* bias, float* C, int64_t M, int64_t N, int64_t K, bool relu, cudaStream_t stream) {
  dim3 block(16, 16);
  dim3 grid((unsigned)((N + 15) / 16), (unsigned)((M + 15) / 16), 1);
  mm_naive_kernel<<<grid, block, 0, stream>>>(A, W, bias, C, M, N, K, 0, K, 1, 0, 1, K, relu);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
torch::Tensor mlp_forward_naive(torch::Tensor x, torch::Tensor w1, torch::Tensor b1, torch::Tensor w2, torch::Tensor b2, torch::Tensor w3, torch::Tensor b3) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w1.is_cuda(), "w1 must be a CUDA tensor");
  TORCH_CHECK(w1.scalar_type() == torch::kFloat32, "w1 must be float32");
  TORCH_CHECK(b1.is_cuda(), "b1 must be a CUDA tensor");
  TORCH_CHECK(b1.scalar_type() == torch::kFloat32, "b1 must be float32");
  TORCH_CHECK(w2.is_cuda(), "w2 must be a CUDA tensor");
  TORCH_CHECK(w2.scalar_type() == torch::kFloat32, "w2 must be float32");
  TORCH_CHECK(b2.is_cuda(), "b2 must be a CUDA tensor");
  TORCH_CHECK(b2.scalar_type() == torch::kFloat32, "b2 must be float32");
  TORCH_CHECK(w3.is_cuda(), "w3 must be a CUDA tensor");
  TORCH_CHECK(w3.scalar_type() == torch::kFloat32, "w3 must be float32");
  TORCH_CHECK(b3.is_cuda(), "b3 must be a CUDA tensor");
  TORCH_CHECK(b3.scalar_type() == torch::kFloat32, "b3 must be float32");
  auto xc = x.contiguous();
  auto W1 = w1.contiguous(); auto B1 = b1.contiguous(); auto W2 = w2.contiguous(); auto B2 = b2.contiguous();
  auto W3 = w3.contiguous(); auto B3 = b3.contiguous();
  const int64_t Bn = xc.size(0);
  const int64_t K0 = Bn == 0 ? W1.size(1) : xc.numel() / Bn, H1 = W1.size(0), H2 = W2.size(0), C = W3.size(0);
  TORCH_CHECK(W1.size(1) == K0 && W2.size(1) == H1 && W3.size(1) == H2 && B1.numel() == H1 && B2.numel() == H2 && B3.numel() == C, "shape mismatch");
  auto out = torch::empty({Bn, C}, xc.options());
  if (Bn == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  auto h1 = torch::empty({Bn, H1}, xc.options());
  auto h2 = torch::empty({Bn, H2}, xc.options());
  // y = act(x @ W^T + b): B(k, n) = W[n, k]
  gemm(xc.data_ptr<float>(), W1.data_ptr<float>(), B1.data_ptr<float>(), h1.data_ptr<float>(), Bn, H1, K0, true, stream);
  gemm(h1.data_ptr<float>(), W2.data_ptr<float>(), B2.data_ptr<float>(), h2.data_ptr<float>(), Bn, H2, H1, true, stream);
  gemm(h2.data_ptr<float>(), W3.data_ptr<float>(), B3.data_ptr<float>(), out.data_ptr<float>(), Bn, C, H2, false, stream);
  return out;
}
"""

cpp_src = "torch::Tensor mlp_forward_naive(torch::Tensor x, torch::Tensor w1, torch::Tensor b1, torch::Tensor w2, torch::Tensor b2, torch::Tensor w3, torch::Tensor b3);"

_ext = load_inline(name="t2c_mlp_forward_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["mlp_forward_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features=784, hidden1=256, hidden2=128, num_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden1)
        self.fc2 = nn.Linear(hidden1, hidden2)
        self.fc3 = nn.Linear(hidden2, num_classes)

    def forward(self, x):
        return _ext.mlp_forward_naive(x, self.fc1.weight, self.fc1.bias, self.fc2.weight, self.fc2.bias, self.fc3.weight, self.fc3.bias)
