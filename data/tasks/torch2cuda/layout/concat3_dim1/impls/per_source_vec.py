# strategy: per_source_vec — one launch per source tensor: each copies its batch of contiguous (c_i * length) runs into the output's channel slice with a grid-stride loop over (run chunk, batch), as float4 when the run, the output stride and the slice offset are all multiples of 4 floats (scalar otherwise)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// units of T: run = units per batch in the source, stride = units per batch in the output, off = slice start
template <typename T>
__global__ void cat_slice_kernel(const T* __restrict__ src, T* __restrict__ dst, int64_t run, int64_t stride, int64_t off, int64_t B) {
  for (int64_t b = blockIdx.y; b < B; b += gridDim.y) {
    const T* s = src + b * run;
    T* d = dst + b * stride + off;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < run; k += (int64_t)gridDim.x * blockDim.x)
      d[k] = __ldg(s + k);
  }
}

static void copy_slice(const float* src, float* dst, int64_t run, int64_t stride, int64_t off, int64_t B, cudaStream_t stream) {
  if (run == 0 || B == 0) return;
  const bool vec = run % 4 == 0 && stride % 4 == 0 && off % 4 == 0 &&
                   ((reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst)) & 15) == 0;
  const int threads = 256;
  const int64_t units = vec ? run / 4 : run;
  int64_t gx = (units + threads - 1) / threads;
  if (gx > 2048) gx = 2048;
  dim3 grid((unsigned)gx, (unsigned)(B < 65535 ? B : 65535));
  if (vec)
    cat_slice_kernel<float4><<<grid, threads, 0, stream>>>(reinterpret_cast<const float4*>(src), reinterpret_cast<float4*>(dst),
                                                           run / 4, stride / 4, off / 4, B);
  else
    cat_slice_kernel<float><<<grid, threads, 0, stream>>>(src, dst, run, stride, off, B);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor cat3_slices(torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda() && c.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32 && c.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(a.dim() == 3 && b.dim() == 3 && c.dim() == 3, "inputs must be 3D");
  auto ac = a.contiguous(); auto bc = b.contiguous(); auto cc = c.contiguous();
  const int64_t N = ac.size(0), L = ac.size(2);
  TORCH_CHECK(bc.size(0) == N && cc.size(0) == N && bc.size(2) == L && cc.size(2) == L, "shape mismatch");
  const int64_t C1 = ac.size(1), C2 = bc.size(1), C3 = cc.size(1), Ct = C1 + C2 + C3;
  auto y = torch::empty({N, Ct, L}, ac.options());
  if (y.numel() == 0) return y;
  float* yp = y.data_ptr<float>();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  copy_slice(ac.data_ptr<float>(), yp, C1 * L, Ct * L, 0, N, stream);
  copy_slice(bc.data_ptr<float>(), yp, C2 * L, Ct * L, C1 * L, N, stream);
  copy_slice(cc.data_ptr<float>(), yp, C3 * L, Ct * L, (C1 + C2) * L, N, stream);
  return y;
}
"""

cpp_src = "torch::Tensor cat3_slices(torch::Tensor a, torch::Tensor b, torch::Tensor c);"

_ext = load_inline(name="t2c_layout_cat3_slices", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cat3_slices"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b, c):
        return _ext.cat3_slices(a, b, c)
