# strategy: warp_shuffle_vec — rows with cols % 4 == 0: each lane loads one aligned float4 of the source and takes the next lane's float4 with __shfl_down_sync, then funnels the misaligned window (shift mod 4) into one aligned float4 store; other rows: one thread per element with the wrap handled by a compare, no per-element modulo
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// output vector v of a row = 4 source elements starting at (4v - s) mod cols. With s = 4*sv + m:
// m == 0: source vector (v - sv) mod nv; m > 0: window starting at element 4 - m of source vector
// (v - sv - 1) mod nv, spilling into the next source vector, which is what the next lane loaded.
__global__ void roll_shfl_vec_kernel(const float4* __restrict__ x, float4* __restrict__ y, int rows, int nv, int sv, int m) {
  const int lane = threadIdx.x & 31;
  const int v = blockIdx.x * blockDim.x + threadIdx.x;   // may exceed nv: loads stay in the row (mod nv)
  int q = (v - sv - (m > 0 ? 1 : 0)) % nv;
  if (q < 0) q += nv;
  for (int r = blockIdx.y; r < rows; r += gridDim.y) {
    const float4* xr = x + (int64_t)r * nv;
    const float4 a = __ldg(xr + q);
    float4 o;
    if (m == 0) {
      o = a;
    } else {
      float4 b;
      b.x = __shfl_down_sync(0xffffffffu, a.x, 1);
      b.y = __shfl_down_sync(0xffffffffu, a.y, 1);
      b.z = __shfl_down_sync(0xffffffffu, a.z, 1);
      b.w = __shfl_down_sync(0xffffffffu, a.w, 1);
      if (lane == 31) b = __ldg(xr + (q + 1 == nv ? 0 : q + 1));
      if (m == 3) o = make_float4(a.y, a.z, a.w, b.x);        // window starts at element 1
      else if (m == 2) o = make_float4(a.z, a.w, b.x, b.y);   // element 2
      else o = make_float4(a.w, b.x, b.y, b.z);               // element 3
    }
    if (v < nv) y[(int64_t)r * nv + v] = o;
  }
}

__global__ void roll_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, int rows, int cols, int s) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  int src = j - s;
  if (src < 0) src += cols;
  for (int r = blockIdx.y; r < rows; r += gridDim.y)
    y[(int64_t)r * cols + j] = __ldg(x + (int64_t)r * cols + src);
}

torch::Tensor roll_shfl(torch::Tensor x, int64_t shift) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "x must be a float32 CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "x must be 2D");
  auto xc = x.contiguous();
  const int64_t rows = xc.size(0), cols = xc.size(1);
  auto y = torch::empty_like(xc);
  if (xc.numel() == 0) return y;
  TORCH_CHECK(cols < (1LL << 30) && rows < (1LL << 31), "sizes too large");
  int64_t s = shift % cols;
  if (s < 0) s += cols;
  const float* xp = xc.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const unsigned gy = (unsigned)(rows < 65535 ? rows : 65535);
  const bool vec = cols % 4 == 0 && ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0;
  if (vec) {
    const int nv = (int)(cols / 4);
    dim3 grid((unsigned)((nv + 255) / 256), gy);
    roll_shfl_vec_kernel<<<grid, 256, 0, stream>>>(reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp),
                                                   (int)rows, nv, (int)(s / 4), (int)(s % 4));
  } else {
    dim3 grid((unsigned)((cols + 255) / 256), gy);
    roll_scalar_kernel<<<grid, 256, 0, stream>>>(xp, yp, (int)rows, (int)cols, (int)s);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor roll_shfl(torch::Tensor x, int64_t shift);"

_ext = load_inline(name="t2c_layout_roll_shfl", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["roll_shfl"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, shift):
        super().__init__()
        self.shift = shift

    def forward(self, x):
        return _ext.roll_shfl(x, self.shift)
