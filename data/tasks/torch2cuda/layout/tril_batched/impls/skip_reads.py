# strategy: skip_reads — one warp per matrix row: the row's cut column is computed once, the kept prefix is copied with float4 loads (scalar at the straddling vector or when m % 4 != 0) and the zero suffix is written without reading the input, so the upper triangle's bytes are never loaded
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int kWarps = 8;

__global__ void __launch_bounds__(32 * kWarps) tril_skip_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                               int64_t rows, int n, int m, int64_t diag, int vec) {
  const int lane = threadIdx.x & 31;
  const int64_t g = (int64_t)blockIdx.x * kWarps + (threadIdx.x >> 5);
  if (g >= rows) return;
  int64_t c = (int64_t)(g % n) + diag + 1;
  const int cut = (int)(c < 0 ? 0 : (c > m ? m : c));
  const float* xr = x + g * m;
  float* yr = y + g * m;
  if (vec) {
    const float4* xv = reinterpret_cast<const float4*>(xr);
    float4* yv = reinterpret_cast<float4*>(yr);
    const int full = cut / 4, mv = m / 4;
    for (int k = lane; k < full; k += 32) yv[k] = __ldg(xv + k);
    if (lane == 0 && full < mv) {                 // the vector holding the cut (cut % 4 kept elements)
      const int j = 4 * full;
      float4 o = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (j + 0 < cut) o.x = __ldg(xr + j + 0);
      if (j + 1 < cut) o.y = __ldg(xr + j + 1);
      if (j + 2 < cut) o.z = __ldg(xr + j + 2);
      yv[full] = o;
    }
    const float4 z = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = full + 1 + lane; k < mv; k += 32) yv[k] = z;
  } else {
    for (int j = lane; j < cut; j += 32) yr[j] = __ldg(xr + j);
    for (int j = cut + lane; j < m; j += 32) yr[j] = 0.0f;
  }
}

torch::Tensor tril_skip(torch::Tensor x, int64_t diag) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  TORCH_CHECK(x.dim() == 3, "x must be (batch, n, m)");
  auto xc = x.contiguous();
  const int64_t n = xc.size(1), m = xc.size(2);
  auto y = torch::empty_like(xc);
  if (xc.numel() == 0) return y;
  TORCH_CHECK(m < (1LL << 30) && n < (1LL << 31), "matrix too large");
  const int64_t rows = xc.size(0) * n;
  const float* xp = xc.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  const int vec = (m % 4 == 0 && ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0) ? 1 : 0;
  const int64_t blocks = (rows + kWarps - 1) / kWarps;
  TORCH_CHECK(blocks < (1LL << 31), "too many rows");
  tril_skip_kernel<<<(unsigned)blocks, 32 * kWarps, 0, at::cuda::getCurrentCUDAStream()>>>(xp, yp, rows, (int)n, (int)m, diag, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor tril_skip(torch::Tensor x, int64_t diag);"

_ext = load_inline(name="t2c_layout_tril_skip", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["tril_skip"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, diagonal):
        super().__init__()
        self.diagonal = diagonal

    def forward(self, x):
        return _ext.tril_skip(x, self.diagonal)
