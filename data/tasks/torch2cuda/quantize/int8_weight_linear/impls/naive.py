# strategy: naive (weak) — one thread per output element, the k loop in global memory with the int8 weight dequantized per multiply; consecutive threads walk different weight rows (uncoalesced)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void w8_linear_naive_kernel(const float* x, const int8_t* wq, const float* ws, const float* bias, float* y,
                                       int64_t B, int64_t K, int64_t N) {
  const int64_t n = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t b = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (n >= N || b >= B) return;
  float acc = 0.f;
  for (int64_t k = 0; k < K; ++k) acc += x[b * K + k] * ((float)wq[n * K + k] * ws[n]);
  y[b * N + n] = acc + bias[n];
}

torch::Tensor w8_linear_naive(torch::Tensor x, torch::Tensor wq, torch::Tensor ws, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 2, "bad x");
  TORCH_CHECK(wq.is_cuda() && wq.scalar_type() == torch::kInt8 && wq.is_contiguous() && wq.dim() == 2, "bad weight");
  TORCH_CHECK(ws.is_cuda() && ws.scalar_type() == torch::kFloat32 && ws.is_contiguous(), "bad scale");
  TORCH_CHECK(bias.is_cuda() && bias.scalar_type() == torch::kFloat32 && bias.is_contiguous(), "bad bias");
  const int64_t B = x.size(0), K = x.size(1), N = wq.size(0);
  TORCH_CHECK(wq.size(1) == K && ws.numel() == N && bias.numel() == N, "shape mismatch");
  auto y = torch::empty({B, N}, x.options());
  if (B == 0 || N == 0) return y;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const dim3 block(16, 16);
  const dim3 grid((unsigned)((N + 15) / 16), (unsigned)((B + 15) / 16));
  w8_linear_naive_kernel<<<grid, block, 0, stream>>>(x.data_ptr<float>(), wq.data_ptr<int8_t>(), ws.data_ptr<float>(),
                                                     bias.data_ptr<float>(), y.data_ptr<float>(), B, K, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor w8_linear_naive(torch::Tensor x, torch::Tensor wq, torch::Tensor ws, torch::Tensor bias);"

_ext = load_inline(name="t2c_quant_w8linear_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["w8_linear_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        # drawn as the reference draws them (the strict mode copies the reference's values over these)
        self.register_buffer("weight_int8", torch.randint(-127, 128, (out_features, in_features), dtype=torch.int8))
        self.weight_scale = nn.Parameter((torch.rand(out_features) + 0.5) * (2.0 / (127.0 * in_features ** 0.5)))
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x):
        return _ext.w8_linear_naive(x, self.weight_int8, self.weight_scale, self.bias)
