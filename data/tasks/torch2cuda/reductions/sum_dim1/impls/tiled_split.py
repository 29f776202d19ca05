# strategy: tiled_split — 32x16 thread tiles (coalesced along inner), partial sums combined in shared memory, reduced dim split across grid.z for parallelism, then a combine kernel
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// 2-D blocks of 32 columns x 16 row-groups: each thread sums a strided subset of d for its column,
// then the 16 partials per column are combined in shared memory; grid.z splits long D further and the
// splits are combined in a second tiny kernel
constexpr int TX = 32, TY = 16;
__global__ void sum_dim1_partial_kernel(const float* __restrict__ x, float* __restrict__ part, int64_t B, int64_t D,
                                        int64_t N, int splits) {
  __shared__ float sh[TY][TX + 1];
  const int64_t n = (int64_t)blockIdx.x * TX + threadIdx.x;
  const int64_t b = blockIdx.y;
  const int64_t chunk = (D + splits - 1) / splits;
  const int64_t d0 = (int64_t)blockIdx.z * chunk;
  const int64_t d1 = d0 + chunk < D ? d0 + chunk : D;
  float acc = 0.0f;
  if (n < N) {
    const float* xp = x + b * D * N + n;
    for (int64_t d = d0 + threadIdx.y; d < d1; d += TY) acc += xp[d * N];
  }
  sh[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0 && n < N) {
    float s = 0.0f;
    for (int k = 0; k < TY; ++k) s += sh[k][threadIdx.x];
    part[((int64_t)blockIdx.z * B + b) * N + n] = s;
  }
}
__global__ void sum_splits_kernel(const float* __restrict__ part, float* __restrict__ y, int64_t BN, int splits) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= BN) return;
  float s = 0.0f;
  for (int k = 0; k < splits; ++k) s += part[k * BN + t];
  y[t] = s;
}
torch::Tensor sum_dim1_tiled_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() == 3, "x must be 3-D");
  auto xc = x.contiguous();
  const int64_t B = xc.size(0), D = xc.size(1), N = xc.size(2);
  auto out = torch::empty({B, N}, xc.options());
  if (B * N == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  TORCH_CHECK(B <= 65535, "batch too large for grid.y");
  const int64_t col_blocks = (N + TX - 1) / TX;
  int dev = 0, sms = 132;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  int64_t want = ((int64_t)sms * 8 + col_blocks * B - 1) / (col_blocks * B);
  int64_t maxs = (D + 255) / 256;
  int splits = (int)(want < maxs ? want : maxs);
  if (splits < 1) splits = 1;
  if (splits > 64) splits = 64;
  auto part = torch::empty({(int64_t)splits * B * N}, xc.options());
  sum_dim1_partial_kernel<<<dim3((unsigned)col_blocks, (unsigned)B, splits), dim3(TX, TY), 0, stream>>>(
      xc.data_ptr<float>(), part.data_ptr<float>(), B, D, N, splits);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  sum_splits_kernel<<<(unsigned)((B * N + 255) / 256), 256, 0, stream>>>(part.data_ptr<float>(), out.data_ptr<float>(), B * N, splits);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor sum_dim1_tiled_forward(torch::Tensor x);"

_ext = load_inline(name="t2c_sum_dim1_tiled", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sum_dim1_tiled_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.sum_dim1_tiled_forward(x)
