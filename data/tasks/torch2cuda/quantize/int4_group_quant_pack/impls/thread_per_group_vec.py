# strategy: thread_per_group_vec — one thread owns a whole group (no shuffles or barriers): 16-byte float4 loads for the absmax pass, a second float4 pass (L1/L2-hot) that packs four values into one 16-bit store; scalar pairs when group_size % 4 != 0
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

__device__ __forceinline__ uint32_t q4n(float v, float s) {
  return (uint32_t)((int)fminf(fmaxf(rintf(v / s), -8.f), 7.f) & 0xF);
}

template <bool VEC>
__global__ void q4_thread_kernel(const float* __restrict__ x, uint8_t* __restrict__ packed, float* __restrict__ scale,
                                 int64_t ngroups, int64_t gs) {
  const int64_t grp = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (grp >= ngroups) return;
  const float* xg = x + grp * gs;
  uint8_t* out = packed + grp * (gs / 2);
  float amax = 0.f;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xg);
    for (int64_t k = 0; k < gs / 4; ++k) {
      const float4 v = x4[k];
      amax = fmaxf(amax, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
    }
  } else {
    for (int64_t k = 0; k < gs; ++k) amax = fmaxf(amax, fabsf(xg[k]));
  }
  const float s = fmaxf(amax, 1e-8f) * (float)(1.0 / 7.0);
  scale[grp] = s;
  if (VEC) {
    const float4* x4 = reinterpret_cast<const float4*>(xg);
    uint16_t* o2 = reinterpret_cast<uint16_t*>(out);
    for (int64_t k = 0; k < gs / 4; ++k) {
      const float4 v = x4[k];
      // bytes 2k (elements 4k, 4k+1) and 2k+1 (elements 4k+2, 4k+3), little-endian in one 16-bit word
      o2[k] = (uint16_t)(q4n(v.x, s) | (q4n(v.y, s) << 4) | (q4n(v.z, s) << 8) | (q4n(v.w, s) << 12));
    }
  } else {
    for (int64_t k = 0; k < gs; k += 2) out[k / 2] = (uint8_t)(q4n(xg[k], s) | (q4n(xg[k + 1], s) << 4));
  }
}

std::vector<torch::Tensor> q4_pack_thread(torch::Tensor x, int64_t gs) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 2,
              "x must be a contiguous float32 CUDA tensor (rows, cols)");
  const int64_t rows = x.size(0), cols = x.size(1);
  TORCH_CHECK(gs >= 2 && gs % 2 == 0 && cols % gs == 0, "cols must be a multiple of an even group_size");
  auto packed = torch::empty({rows, cols / 2}, x.options().dtype(torch::kUInt8));
  auto scale = torch::empty({rows, cols / gs}, x.options());
  const int64_t ngroups = rows * (cols / gs);
  if (ngroups == 0) return {packed, scale};
  // float4 groups need gs % 4 == 0 and a 16-byte aligned x; the 16-bit stores then land on even byte offsets
  const bool vec = gs % 4 == 0 && (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) & 15) == 0 &&
                   (reinterpret_cast<uintptr_t>(packed.data_ptr<uint8_t>()) & 1) == 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  const unsigned blocks = (unsigned)((ngroups + threads - 1) / threads);
  if (vec) q4_thread_kernel<true><<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), packed.data_ptr<uint8_t>(),
                                                                  scale.data_ptr<float>(), ngroups, gs);
  else q4_thread_kernel<false><<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), packed.data_ptr<uint8_t>(),
                                                               scale.data_ptr<float>(), ngroups, gs);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {packed, scale};
}
"""

cpp_src = "std::vector<torch::Tensor> q4_pack_thread(torch::Tensor x, int64_t gs);"

_ext = load_inline(name="t2c_quant_q4pack_thread", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["q4_pack_thread"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, group_size):
        super().__init__()
        self.group_size = int(group_size)

    def forward(self, x):
        return _ext.q4_pack_thread(x, self.group_size)
