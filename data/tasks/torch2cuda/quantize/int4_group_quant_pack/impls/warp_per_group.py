# strategy: warp_per_group — one warp per group (grid-stride over all groups): each lane reads consecutive element pairs as float2 (coalesced), absmax by warp shuffles, and writes the pair's packed byte (coalesced byte stores); the group's pairs stay in registers when group_size <= 256
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define WARPS 8
#define MAXP 4   // pairs per lane kept in registers: groups of up to 32 * 2 * MAXP = 256 values

__device__ __forceinline__ int q4(float v, float s) { return (int)fminf(fmaxf(rintf(v / s), -8.f), 7.f); }

__global__ void __launch_bounds__(WARPS * 32) q4_warp_kernel(const float* __restrict__ x, uint8_t* __restrict__ packed,
                                                             float* __restrict__ scale, int64_t ngroups, int64_t gs) {
  const int lane = threadIdx.x & 31;
  const int64_t warp0 = (int64_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
  const int64_t wstride = (int64_t)gridDim.x * WARPS;
  const int64_t npairs = gs / 2;
  for (int64_t grp = warp0; grp < ngroups; grp += wstride) {
    // groups are contiguous in memory: group grp covers elements [grp * gs, grp * gs + gs)
    const float2* xp = reinterpret_cast<const float2*>(x + grp * gs);
    uint8_t* out = packed + grp * npairs;
    float amax = 0.f;
    if (npairs <= 32 * MAXP) {
      float2 v[MAXP];
#pragma unroll
      for (int k = 0; k < MAXP; ++k) {
        const int64_t p = lane + 32 * k;
        v[k] = p < npairs ? xp[p] : make_float2(0.f, 0.f);
        amax = fmaxf(amax, fmaxf(fabsf(v[k].x), fabsf(v[k].y)));
      }
      for (int o = 16; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
      const float s = fmaxf(amax, 1e-8f) * (float)(1.0 / 7.0);
      if (lane == 0) scale[grp] = s;
#pragma unroll
      for (int k = 0; k < MAXP; ++k) {
        const int64_t p = lane + 32 * k;
        if (p < npairs) out[p] = (uint8_t)((q4(v[k].x, s) & 0xF) | ((q4(v[k].y, s) & 0xF) << 4));
      }
    } else {
      for (int64_t p = lane; p < npairs; p += 32) { const float2 v = xp[p]; amax = fmaxf(amax, fmaxf(fabsf(v.x), fabsf(v.y))); }
      for (int o = 16; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
      const float s = fmaxf(amax, 1e-8f) * (float)(1.0 / 7.0);
      if (lane == 0) scale[grp] = s;
      for (int64_t p = lane; p < npairs; p += 32) {
        const float2 v = xp[p];
        out[p] = (uint8_t)((q4(v.x, s) & 0xF) | ((q4(v.y, s) & 0xF) << 4));
      }
    }
  }
}

std::vector<torch::Tensor> q4_pack_warp(torch::Tensor x, int64_t gs) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() == 2,
              "x must be a contiguous float32 CUDA tensor (rows, cols)");
  const int64_t rows = x.size(0), cols = x.size(1);
  TORCH_CHECK(gs >= 2 && gs % 2 == 0 && cols % gs == 0, "cols must be a multiple of an even group_size");
  TORCH_CHECK((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) & 7) == 0, "x must be 8-byte aligned");
  auto packed = torch::empty({rows, cols / 2}, x.options().dtype(torch::kUInt8));
  auto scale = torch::empty({rows, cols / gs}, x.options());
  const int64_t ngroups = rows * (cols / gs);
  if (ngroups == 0) return {packed, scale};
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t want = (ngroups + WARPS - 1) / WARPS;
  const unsigned blocks = (unsigned)(want < 132 * 16 ? want : 132 * 16);
  q4_warp_kernel<<<blocks, WARPS * 32, 0, stream>>>(x.data_ptr<float>(), packed.data_ptr<uint8_t>(),
                                                    scale.data_ptr<float>(), ngroups, gs);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {packed, scale};
}
"""

cpp_src = "std::vector<torch::Tensor> q4_pack_warp(torch::Tensor x, int64_t gs);"

_ext = load_inline(name="t2c_quant_q4pack_warp", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["q4_pack_warp"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, group_size):
        super().__init__()
        self.group_size = int(group_size)

    def forward(self, x):
        return _ext.q4_pack_warp(x, self.group_size)
