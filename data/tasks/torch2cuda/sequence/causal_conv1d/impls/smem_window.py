# strategy: smem_window — a block stages a 1024-step segment plus its K-1 history (zero-filled before t = 0) and the channel's taps in shared memory; each thread keeps a sliding window of K+3 inputs in registers, produces 4 consecutive outputs and stores them as one float4 (scalar at the tail or when L % 4 != 0)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int NT = 256, PER = 4, SEG = NT * PER, MAXK = 16;

__global__ void __launch_bounds__(NT) causal_conv_window_kernel(const float* __restrict__ x, const float* __restrict__ w,
    const float* __restrict__ bias, float* __restrict__ y, int64_t rows, int C, int L, int K, int vec) {
  __shared__ float buf[SEG + MAXK - 1];
  __shared__ float wk[MAXK];
  const int64_t t0 = (int64_t)blockIdx.x * SEG;
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    const int c = (int)(r % C);
    const float* xr = x + r * L;
    for (int i = threadIdx.x; i < SEG + K - 1; i += NT) {
      const int64_t s = t0 - (K - 1) + i;
      buf[i] = (s >= 0 && s < L) ? __ldg(xr + s) : 0.f;
    }
    if (threadIdx.x < K) wk[threadIdx.x] = __ldg(w + (int64_t)c * K + threadIdx.x);
    __syncthreads();
    const int o = PER * threadIdx.x;
    float win[MAXK + PER - 1];
#pragma unroll
    for (int i = 0; i < MAXK + PER - 1; ++i) win[i] = (i < K + PER - 1) ? buf[o + i] : 0.f;
    const float b0 = __ldg(bias + c);
    float acc[PER];
#pragma unroll
    for (int j = 0; j < PER; ++j) {
      float a = b0;
#pragma unroll
      for (int k = 0; k < MAXK; ++k)
        if (k < K) a = fmaf(wk[k], win[j + k], a);
      acc[j] = a;
    }
    const int64_t t = t0 + o;
    float* yr = y + r * L;
    if (vec && t + PER - 1 < L) {
      *reinterpret_cast<float4*>(yr + t) = make_float4(acc[0], acc[1], acc[2], acc[3]);
    } else {
#pragma unroll
      for (int j = 0; j < PER; ++j)
        if (t + j < L) yr[t + j] = acc[j];
    }
    __syncthreads();
  }
}

torch::Tensor causal_conv1d_window_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 3 && w.dim() == 2 && w.size(0) == x.size(1) && b.numel() == x.size(1), "shape mismatch");
  auto xc = x.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t B = xc.size(0), C = xc.size(1), L = xc.size(2);
  const int K = (int)wc.size(1);
  TORCH_CHECK(K >= 1 && K <= MAXK, "kernel size must be in [1, 16]");
  auto out = torch::empty_like(xc);
  const int64_t rows = B * C;
  if (rows == 0 || L == 0) return out;
  float* yp = out.data_ptr<float>();
  const int vec = (L % 4 == 0 && (reinterpret_cast<uintptr_t>(yp) & 15) == 0) ? 1 : 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  dim3 grid((unsigned)((L + SEG - 1) / SEG), (unsigned)(rows < 65535 ? rows : 65535));
  causal_conv_window_kernel<<<grid, NT, 0, stream>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), yp,
                                                     rows, (int)C, (int)L, K, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor causal_conv1d_window_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

_ext = load_inline(name="t2c_causal_conv1d_smem_window", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["causal_conv1d_window_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.kernel_size = kernel_size
        self.weight = nn.Parameter(torch.zeros(channels, kernel_size))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return _ext.causal_conv1d_window_forward(x, self.weight, self.bias)
