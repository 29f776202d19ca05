# strategy: plane_vectorized — a 2-D grid over (plane, slice), per-channel scale/shift folded once per block, float4 fma streaming
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// grid.y walks the (n, c) planes; each block folds the channel's statistics into one scale and shift
// and streams its slice of the plane with float4 loads/stores when the plane is 16-byte aligned
__global__ void bn_plane_kernel(const float* __restrict__ x, const float* __restrict__ rm, const float* __restrict__ rv,
                                const float* __restrict__ w, const float* __restrict__ b, float* __restrict__ y,
                                int64_t planes, int64_t C, int64_t HW, float eps, bool vec) {
  for (int64_t p = blockIdx.y; p < planes; p += gridDim.y) {
    const int64_t c = p % C;
    const float scale = w[c] * rsqrtf(rv[c] + eps);
    const float shift = b[c] - rm[c] * scale;
    const float* xp = x + p * HW;
    float* yp = y + p * HW;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t t0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (vec) {
      const float4* x4 = reinterpret_cast<const float4*>(xp);
      float4* y4 = reinterpret_cast<float4*>(yp);
      for (int64_t i = t0; i < HW / 4; i += stride) {
        float4 v = x4[i];
        y4[i] = make_float4(fmaf(v.x, scale, shift), fmaf(v.y, scale, shift), fmaf(v.z, scale, shift), fmaf(v.w, scale, shift));
      }
    } else {
      for (int64_t i = t0; i < HW; i += stride) yp[i] = fmaf(xp[i], scale, shift);
    }
  }
}
torch::Tensor batchnorm_plane_forward(torch::Tensor x, torch::Tensor rm, torch::Tensor rv, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(rm.is_cuda(), "rm must be a CUDA tensor");
  TORCH_CHECK(rm.scalar_type() == torch::kFloat32, "rm must be float32");
  TORCH_CHECK(rv.is_cuda(), "rv must be a CUDA tensor");
  TORCH_CHECK(rv.scalar_type() == torch::kFloat32, "rv must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  auto xc = x.contiguous();
  auto rmc = rm.contiguous(); auto rvc = rv.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t N = xc.size(0), C = xc.size(1), HW = xc.size(2) * xc.size(3);
  auto out = torch::empty_like(xc);
  if (xc.numel() == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t planes = N * C;
  const bool vec = (HW % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0);
  const int threads = 256;
  const int64_t per_plane = vec ? HW / 4 : HW;
  int64_t bx = (per_plane + threads - 1) / threads;
  if (bx > 64) bx = 64;
  if (bx < 1) bx = 1;
  int64_t by = planes < 65535 ? planes : 65535;
  bn_plane_kernel<<<dim3((unsigned)bx, (unsigned)by), threads, 0, stream>>>(
      xc.data_ptr<float>(), rmc.data_ptr<float>(), rvc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
      out.data_ptr<float>(), planes, C, HW, (float)eps, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor batchnorm_plane_forward(torch::Tensor x, torch::Tensor rm, torch::Tensor rv, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_batchnorm_plane", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["batchnorm_plane_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, eps=1e-5):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, eps=eps)

    def forward(self, x):
        return _ext.batchnorm_plane_forward(x, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias, float(self.bn.eps))
