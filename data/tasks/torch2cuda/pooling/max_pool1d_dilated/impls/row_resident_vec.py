# strategy: row_resident_vec — one block per (N, C) row: the whole row is loaded into shared memory with float4 loads (scalar when the row is not 16-byte aligned), then every output's dilated window is reduced from shared memory with bounds clipping instead of padding cells
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

static int64_t pool_len(int64_t n, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  int64_t o = (n + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0)) / s + 1;
  if (ceil && (o - 1) * s >= n + p) --o;
  return o;
}

__global__ void maxpool1d_row_kernel(const float* __restrict__ x, float* __restrict__ y, int L, int Lo, int k, int s, int p,
                                     int d, bool vec) {
  extern __shared__ float row_buf[];
  const int64_t row = blockIdx.x;
  const float* xr = x + row * L;
  if (vec) {
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    float4* b4 = reinterpret_cast<float4*>(row_buf);
    for (int e = threadIdx.x; e < (L >> 2); e += blockDim.x) b4[e] = __ldg(x4 + e);
  } else {
    for (int e = threadIdx.x; e < L; e += blockDim.x) row_buf[e] = __ldg(xr + e);
  }
  __syncthreads();
  float* yr = y + row * Lo;
  for (int o = threadIdx.x; o < Lo; o += blockDim.x) {
    const int base = o * s - p;
    // first and last tap inside [0, L)
    int j0 = 0;
    if (base < 0) j0 = (-base + d - 1) / d;
    int j1 = k;
    if (base + (k - 1) * d >= L) j1 = (L - 1 - base) / d + 1;
    float m = -INFINITY;
    for (int j = j0; j < j1; ++j) {
      const float v = row_buf[base + j * d];
      if (v > m || v != v) m = v;
      if (m != m) break;
    }
    yr[o] = m;
  }
}

torch::Tensor maxpool1d_row_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 3, "x must be a CUDA float32 (N, C, L) tensor");
  TORCH_CHECK(k > 0 && s > 0 && d > 0 && p >= 0 && 2 * p <= (k - 1) * d + 1, "invalid pooling parameters");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), L = xc.size(2);
  const int64_t Lo = pool_len(L, k, s, p, d, ceil);
  TORCH_CHECK(Lo > 0, "empty output");
  auto out = torch::empty({N, C, Lo}, xc.options());
  const int64_t rows = N * C;
  if (rows == 0) return out;
  TORCH_CHECK(L * 4 <= 48 * 1024, "rows longer than 12288 do not fit in shared memory");
  TORCH_CHECK(rows <= 2147483647LL, "too many rows");
  const bool vec = (L % 4 == 0) && ((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) & 15) == 0);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  maxpool1d_row_kernel<<<(unsigned)rows, 256, (size_t)L * sizeof(float), stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                                                  (int)L, (int)Lo, (int)k, (int)s, (int)p,
                                                                                  (int)d, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor maxpool1d_row_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil);"

_ext = load_inline(name="t2c_maxpool1d_row_resident", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["maxpool1d_row_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, kernel_size, stride, padding, dilation, ceil_mode):
        super().__init__()
        self.k, self.s, self.p, self.d = int(kernel_size), int(stride), int(padding), int(dilation)
        self.ceil = bool(ceil_mode)

    def forward(self, x):
        return _ext.maxpool1d_row_forward(x, self.k, self.s, self.p, self.d, self.ceil)
