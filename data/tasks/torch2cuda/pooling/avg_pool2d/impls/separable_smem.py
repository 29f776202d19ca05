# strategy: separable_smem — 32x16 output tile per block; the zero-padded input patch is staged in shared memory, then window rows are summed once (horizontal pass) and reused by every output below (vertical pass)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

static int64_t out_len(int64_t n, int64_t k, int64_t s, int64_t p, bool ceil) {
  int64_t o = (n + 2 * p - k + (ceil ? s - 1 : 0)) / s + 1;
  if (ceil && (o - 1) * s >= n + p) --o;
  return o;
}

constexpr int TW = 32, TH = 16;

// smem: patch[ph][pw] (zeros outside the image: they add nothing) then rows[ph][TW], where
// rows[r][c] is the sum of the k patch cells of row r under output column c
__global__ void avgpool_sep_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t planes, int H, int W,
                                   int Ho, int Wo, int k, int s, int p, bool incl) {
  extern __shared__ float sm[];
  const int ph = (TH - 1) * s + k, pw = (TW - 1) * s + k;
  float* patch = sm;
  float* rows = sm + ph * pw;
  const int oh0 = blockIdx.y * TH, ow0 = blockIdx.x * TW;
  const int ih0 = oh0 * s - p, iw0 = ow0 * s - p;
  const int tid = threadIdx.y * TW + threadIdx.x;
  const int oh = oh0 + threadIdx.y, ow = ow0 + threadIdx.x;
  for (int64_t plane = blockIdx.z; plane < planes; plane += gridDim.z) {
    const float* xp = x + plane * (int64_t)H * W;
    for (int e = tid; e < ph * pw; e += TW * TH) {
      const int r = e / pw, c = e - r * pw;
      const int ih = ih0 + r, iw = iw0 + c;
      patch[e] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? __ldg(xp + (int64_t)ih * W + iw) : 0.0f;
    }
    __syncthreads();
    for (int e = tid; e < ph * TW; e += TW * TH) {
      const int r = e / TW, c = e - r * TW;
      const float* pr = patch + r * pw + c * s;
      float a = 0.0f;
      for (int kw = 0; kw < k; ++kw) a += pr[kw];
      rows[e] = a;
    }
    __syncthreads();
    if (oh < Ho && ow < Wo) {
      float acc = 0.0f;
      for (int kh = 0; kh < k; ++kh) acc += rows[(threadIdx.y * s + kh) * TW + threadIdx.x];
      int hs = oh * s - p, ws = ow * s - p;
      int he = min(hs + k, H + p), we = min(ws + k, W + p);
      const int full = (he - hs) * (we - ws);
      hs = max(hs, 0); ws = max(ws, 0); he = min(he, H); we = min(we, W);
      const int div = incl ? full : (he - hs) * (we - ws);
      y[(plane * Ho + oh) * Wo + ow] = acc / (float)div;
    }
    __syncthreads();
  }
}

torch::Tensor avgpool2d_sep_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, bool ceil, bool incl) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 4, "x must be a CUDA float32 NCHW tensor");
  TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling parameters");
  auto xc = x.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
  const int64_t Ho = out_len(H, k, s, p, ceil), Wo = out_len(W, k, s, p, ceil);
  TORCH_CHECK(Ho > 0 && Wo > 0, "empty output");
  auto out = torch::empty({N, C, Ho, Wo}, xc.options());
  if (N * C == 0) return out;
  const int64_t ph = (TH - 1) * s + k, pw = (TW - 1) * s + k;
  const size_t smem = (size_t)(ph * pw + ph * TW) * sizeof(float);
  TORCH_CHECK(smem <= 48 * 1024, "window/stride too large for the shared-memory tile");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t planes = N * C;
  dim3 grid((unsigned)((Wo + TW - 1) / TW), (unsigned)((Ho + TH - 1) / TH), (unsigned)(planes < 65535 ? planes : 65535));
  avgpool_sep_kernel<<<grid, dim3(TW, TH), smem, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), planes, (int)H, (int)W,
                                                          (int)Ho, (int)Wo, (int)k, (int)s, (int)p, incl);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor avgpool2d_sep_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, bool ceil, bool incl);"

_ext = load_inline(name="t2c_avgpool2d_separable", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["avgpool2d_sep_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, kernel_size, stride, padding, ceil_mode, count_include_pad):
        super().__init__()
        self.k, self.s, self.p = int(kernel_size), int(stride), int(padding)
        self.ceil, self.incl = bool(ceil_mode), bool(count_include_pad)

    def forward(self, x):
        return _ext.avgpool2d_sep_forward(x, self.k, self.s, self.p, self.ceil, self.incl)
