# strategy: row_blend_smem — one block per output row: the two source rows are blended vertically once into shared memory (coalesced loads), then each thread interpolates 4 adjacent outputs horizontally from shared memory and stores them as one float4 (scalar path when out_w % 4 != 0)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int MAX_SRC_W = 12288;   // 48 KB of shared memory for the blended source row

__device__ __forceinline__ float hsample(const float* row, int o, float s, int n) {
  // the source coordinate as one fused multiply-add, as PyTorch computes it
  float f = fmaf(s, (float)o + 0.5f, -0.5f);
  f = f < 0.f ? 0.f : f;
  const int i0 = (int)f;
  const int i1 = i0 + ((i0 < n - 1) ? 1 : 0);
  const float l = f - (float)i0;
  return (1.f - l) * row[i0] + l * row[i1];
}

__global__ void bilinear_rowblend_kernel(const float* __restrict__ x, float* __restrict__ y, int H, int W, int Ho, int Wo,
                                         float sh, float sw, int vec) {
  extern __shared__ float blended[];
  const int64_t r = blockIdx.x;             // output row index over all planes
  const int64_t plane = r / Ho;
  const int oh = (int)(r - plane * Ho);
  float fy = fmaf(sh, (float)oh + 0.5f, -0.5f);
  fy = fy < 0.f ? 0.f : fy;
  const int y0 = (int)fy;
  const int y1 = y0 + ((y0 < H - 1) ? 1 : 0);
  const float ly = fy - (float)y0;
  const float* p0 = x + (plane * H + y0) * (int64_t)W;
  const float* p1 = x + (plane * H + y1) * (int64_t)W;
  for (int i = threadIdx.x; i < W; i += blockDim.x) blended[i] = (1.f - ly) * __ldg(p0 + i) + ly * __ldg(p1 + i);
  __syncthreads();
  float* q = y + r * (int64_t)Wo;
  if (vec) {
    float4* q4 = reinterpret_cast<float4*>(q);
    for (int j = threadIdx.x; j < Wo / 4; j += blockDim.x) {
      const int o = 4 * j;
      q4[j] = make_float4(hsample(blended, o, sw, W), hsample(blended, o + 1, sw, W),
                          hsample(blended, o + 2, sw, W), hsample(blended, o + 3, sw, W));
    }
  } else {
    for (int o = threadIdx.x; o < Wo; o += blockDim.x) q[o] = hsample(blended, o, sw, W);
  }
}

torch::Tensor bilinear_rowblend_forward(torch::Tensor x, int64_t out_h, int64_t out_w) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  TORCH_CHECK(out_h > 0 && out_w > 0, "output size must be positive");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1);
  const int H = (int)xc.size(2), W = (int)xc.size(3);
  TORCH_CHECK(W <= MAX_SRC_W, "input width above the shared-memory row limit");
  auto out = torch::empty({N, C, out_h, out_w}, xc.options());
  const int64_t rows = N * C * out_h;
  if (rows == 0 || H == 0 || W == 0) return out;
  TORCH_CHECK(rows <= 2147483647LL, "too many output rows");
  const float sh = (float)H / (float)out_h, sw = (float)W / (float)out_w;
  float* yp = out.data_ptr<float>();
  const int vec = (out_w % 4 == 0 && (reinterpret_cast<uintptr_t>(yp) & 15) == 0) ? 1 : 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  bilinear_rowblend_kernel<<<(unsigned)rows, threads, (size_t)W * sizeof(float), stream>>>(
      xc.data_ptr<float>(), yp, H, W, (int)out_h, (int)out_w, sh, sw, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor bilinear_rowblend_forward(torch::Tensor x, int64_t out_h, int64_t out_w);"

_ext = load_inline(name="t2c_upsample_bilinear_rowblend", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["bilinear_rowblend_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, out_h, out_w):
        super().__init__()
        self.out_h = out_h
        self.out_w = out_w

    def forward(self, x):
        return _ext.bilinear_rowblend_forward(x, int(self.out_h), int(self.out_w))
