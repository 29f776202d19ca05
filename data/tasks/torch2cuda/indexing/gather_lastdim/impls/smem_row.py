# strategy: smem_row — one block per row: the source row is staged in shared memory with coalesced (float4 where aligned) loads, so the random gathers hit shared memory instead of scattered DRAM sectors; rows too wide for shared memory gather through the read-only cache
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int MAX_ROW = 12288;   // 48 KB of dynamic shared memory

__global__ void gather_smem_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx, float* __restrict__ y,
                                   int64_t N, int64_t K, bool staged, bool vec) {
  extern __shared__ float row[];
  const int64_t r = blockIdx.x;
  const float* xr = x + r * N;
  const int64_t* ir = idx + r * K;
  float* yr = y + r * K;
  if (staged) {
    if (vec) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
      float4* r4 = reinterpret_cast<float4*>(row);
      for (int64_t e = threadIdx.x; e < N / 4; e += blockDim.x) r4[e] = __ldg(x4 + e);
    } else {
      for (int64_t e = threadIdx.x; e < N; e += blockDim.x) row[e] = __ldg(xr + e);
    }
    __syncthreads();
    for (int64_t k = threadIdx.x; k < K; k += blockDim.x) {
      const int64_t c = __ldg(ir + k);
      yr[k] = (c >= 0 && c < N) ? row[c] : NAN;
    }
  } else {
    for (int64_t k = threadIdx.x; k < K; k += blockDim.x) {
      const int64_t c = __ldg(ir + k);
      yr[k] = (c >= 0 && c < N) ? __ldg(xr + c) : NAN;
    }
  }
}

torch::Tensor gather_smem_forward(torch::Tensor x, torch::Tensor index) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "x must be CUDA float32 (rows, cols)");
  TORCH_CHECK(index.is_cuda() && index.scalar_type() == torch::kInt64 && index.dim() == 2 && index.size(0) == x.size(0),
              "index must be CUDA int64 (rows, k)");
  auto xc = x.contiguous(); auto ic = index.contiguous();
  const int64_t R = xc.size(0), N = xc.size(1), K = ic.size(1);
  auto out = torch::empty({R, K}, xc.options());
  if (R * K == 0) return out;
  TORCH_CHECK(R <= 2147483647LL, "too many rows");
  // staging pays off when the row is read about as often as it is long and fits in shared memory
  const bool staged = N <= MAX_ROW && 4 * K >= N;
  const bool vec = (N % 4 == 0) && ((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) & 15) == 0);
  const size_t smem = staged ? (size_t)N * sizeof(float) : 0;
  const int threads = K >= 1024 ? 512 : 128;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  gather_smem_kernel<<<(unsigned)R, threads, smem, stream>>>(xc.data_ptr<float>(), ic.data_ptr<int64_t>(), out.data_ptr<float>(),
                                                             N, K, staged, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor gather_smem_forward(torch::Tensor x, torch::Tensor index);"

_ext = load_inline(name="t2c_gather_lastdim_smem", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["gather_smem_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, index):
        return _ext.gather_smem_forward(x, index)
