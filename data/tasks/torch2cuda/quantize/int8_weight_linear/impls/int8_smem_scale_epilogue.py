# strategy: int8_smem_scale_epilogue — 128x64 output tiles, 32-deep k slices; the weight stays int8 in shared memory (a quarter of the staging traffic), the row scale is factored out of the k sum and applied once in the epilogue with the bias; 8x4 register-blocked outputs per thread
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define BM 128
#define BN 64
#define BK 32

// 256 threads; thread (ty, tx) = (t / 16, t % 16) owns rows ty + 16 i (i < 8) and columns tx + 16 j (j < 4)
__global__ void __launch_bounds__(256) w8_epi_kernel(const float* __restrict__ x, const int8_t* __restrict__ wq,
    const float* __restrict__ ws, const float* __restrict__ bias, float* __restrict__ y, int64_t B, int64_t K,
    int64_t N) {
  __shared__ float As[BK][BM + 1];
  __shared__ int8_t Bs[BK][BN + 4];
  const int t = threadIdx.x, tx = t & 15, ty = t >> 4;
  const int64_t m0 = (int64_t)blockIdx.y * BM, n0 = (int64_t)blockIdx.x * BN;
  float acc[8][4];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    // x slice: 128 rows x 32 k = 4096 floats, 16 per thread, 32 consecutive k per row (coalesced)
#pragma unroll
    for (int l = 0; l < 16; ++l) {
      const int e = t + 256 * l, r = e >> 5, kk = e & 31;
      const int64_t gm = m0 + r, gk = k0 + kk;
      As[kk][r] = (gm < B && gk < K) ? x[gm * K + gk] : 0.f;
    }
    // weight slice: 64 rows x 32 k int8 = 2048 bytes, 8 per thread
#pragma unroll
    for (int l = 0; l < 8; ++l) {
      const int e = t + 256 * l, r = e >> 5, kk = e & 31;
      const int64_t gn = n0 + r, gk = k0 + kk;
      Bs[kk][r] = (gn < N && gk < K) ? wq[gn * K + gk] : (int8_t)0;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < BK; ++kk) {
      float a[8], b[4];
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = (float)Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  float s[4], bb[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int64_t gn = n0 + tx + 16 * j;
    s[j] = gn < N ? ws[gn] : 0.f;
    bb[j] = gn < N ? bias[gn] : 0.f;
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int64_t gm = m0 + ty + 16 * i;
    if (gm >= B) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int64_t gn = n0 + tx + 16 * j;
      if (gn < N) y[gm * N + gn] = acc[i][j] * s[j] + bb[j];
    }
  }
}

torch::Tensor w8_linear_epi(torch::Tensor x, torch::Tensor wq, torch::Tensor ws, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 2, "bad x");
  TORCH_CHECK(wq.is_cuda() && wq.scalar_type() == torch::kInt8 && wq.is_contiguous() && wq.dim() == 2, "bad weight");
  TORCH_CHECK(ws.is_cuda() && ws.scalar_type() == torch::kFloat32 && ws.is_contiguous(), "bad scale");
  TORCH_CHECK(bias.is_cuda() && bias.scalar_type() == torch::kFloat32 && bias.is_contiguous(), "bad bias");
  const int64_t B = x.size(0), K = x.size(1), N = wq.size(0);
  TORCH_CHECK(wq.size(1) == K && ws.numel() == N && bias.numel() == N, "shape mismatch");
  auto y = torch::empty({B, N}, x.options());
  if (B == 0 || N == 0) return y;
  TORCH_CHECK((B + BM - 1) / BM <= 65535, "batch too large");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((B + BM - 1) / BM));
  w8_epi_kernel<<<grid, 256, 0, stream>>>(x.data_ptr<float>(), wq.data_ptr<int8_t>(), ws.data_ptr<float>(),
                                          bias.data_ptr<float>(), y.data_ptr<float>(), B, K, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor w8_linear_epi(torch::Tensor x, torch::Tensor wq, torch::Tensor ws, torch::Tensor bias);"

_ext = load_inline(name="t2c_quant_w8linear_epi", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["w8_linear_epi"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        # drawn as the reference draws them (the strict mode copies the reference's values over these)
        self.register_buffer("weight_int8", torch.randint(-127, 128, (out_features, in_features), dtype=torch.int8))
        self.weight_scale = nn.Parameter((torch.rand(out_features) + 0.5) * (2.0 / (127.0 * in_features ** 0.5)))
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x):
        return _ext.w8_linear_epi(x, self.weight_int8, self.weight_scale, self.bias)
