# strategy: smem_angles — one block per position: cos/sin of its head_dim/2 angles computed once into shared memory and reused across every head and batch entry (B*H-fold fewer sincos), the rotation done with float4 loads/stores of 4 pairs per thread (scalar pairs when head_dim % 8 != 0)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int NT = 256;

__device__ __forceinline__ float rot_lo(float a, float b, float c, float s) { return __fsub_rn(__fmul_rn(a, c), __fmul_rn(b, s)); }
__device__ __forceinline__ float rot_hi(float a, float b, float c, float s) { return __fadd_rn(__fmul_rn(b, c), __fmul_rn(a, s)); }

// grid.x = positions (grid-stride); dynamic shared memory: cos[half], sin[half]
__global__ void __launch_bounds__(NT) rope_smem_kernel(const float* __restrict__ x, const float* __restrict__ inv_freq,
    float* __restrict__ y, int B, int T, int H, int half, int vec) {
  extern __shared__ float cs[];
  float* cs_cos = cs;
  float* cs_sin = cs + half;
  const int D = 2 * half;
  for (int t = blockIdx.x; t < T; t += gridDim.x) {
    for (int i = threadIdx.x; i < half; i += NT) {
      float s, c;
      sincosf(__fmul_rn((float)t, __ldg(inv_freq + i)), &s, &c);
      cs_cos[i] = c;
      cs_sin[i] = s;
    }
    __syncthreads();
    for (int b = 0; b < B; ++b) {
      const int64_t base = ((int64_t)b * T + t) * (int64_t)H * D;   // H heads x D values, contiguous
      if (vec) {
        const int q4 = half / 4;                      // float4 groups per half row
        for (int e = threadIdx.x; e < H * q4; e += NT) {
          const int h = e / q4, g = e - h * q4;
          const int64_t o = base + (int64_t)h * D + 4 * g;
          const float4 a = __ldg(reinterpret_cast<const float4*>(x + o));
          const float4 bb = __ldg(reinterpret_cast<const float4*>(x + o + half));
          const int i = 4 * g;
          const float c0 = cs_cos[i], c1 = cs_cos[i + 1], c2 = cs_cos[i + 2], c3 = cs_cos[i + 3];
          const float s0 = cs_sin[i], s1 = cs_sin[i + 1], s2 = cs_sin[i + 2], s3 = cs_sin[i + 3];
          *reinterpret_cast<float4*>(y + o) = make_float4(rot_lo(a.x, bb.x, c0, s0), rot_lo(a.y, bb.y, c1, s1),
                                                          rot_lo(a.z, bb.z, c2, s2), rot_lo(a.w, bb.w, c3, s3));
          *reinterpret_cast<float4*>(y + o + half) = make_float4(rot_hi(a.x, bb.x, c0, s0), rot_hi(a.y, bb.y, c1, s1),
                                                                 rot_hi(a.z, bb.z, c2, s2), rot_hi(a.w, bb.w, c3, s3));
        }
      } else {
        for (int e = threadIdx.x; e < H * half; e += NT) {
          const int h = e / half, i = e - h * half;
          const int64_t o = base + (int64_t)h * D + i;
          const float a = __ldg(x + o), bb = __ldg(x + o + half);
          y[o] = rot_lo(a, bb, cs_cos[i], cs_sin[i]);
          y[o + half] = rot_hi(a, bb, cs_cos[i], cs_sin[i]);
        }
      }
    }
    __syncthreads();                                  // the table is rewritten for the next position
  }
}

torch::Tensor rope_smem_forward(torch::Tensor x, torch::Tensor inv_freq) {
  TORCH_CHECK(x.is_cuda() && inv_freq.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && inv_freq.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(x.dim() == 4, "x must be (batch, seq, heads, head_dim)");
  auto xc = x.contiguous(); auto fc = inv_freq.contiguous();
  const int64_t B = xc.size(0), T = xc.size(1), H = xc.size(2), D = xc.size(3);
  TORCH_CHECK(D % 2 == 0 && fc.numel() == D / 2, "head_dim must be even and match inv_freq");
  TORCH_CHECK(D <= 12288, "head_dim above the shared-memory table limit");
  auto out = torch::empty_like(xc);
  if (out.numel() == 0) return out;
  const int half = (int)(D / 2);
  const float* xp = xc.data_ptr<float>();
  float* yp = out.data_ptr<float>();
  const int vec = (half % 4 == 0 && ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0) ? 1 : 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t blocks = T < 65535 ? T : 65535;
  rope_smem_kernel<<<(unsigned)blocks, NT, (size_t)D * sizeof(float), stream>>>(xp, fc.data_ptr<float>(), yp,
                                                                               (int)B, (int)T, (int)H, half, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor rope_smem_forward(torch::Tensor x, torch::Tensor inv_freq);"

_ext = load_inline(name="t2c_rope_smem_angles", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rope_smem_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, head_dim, base):
        super().__init__()
        self.register_buffer("inv_freq", torch.zeros(head_dim // 2))

    def forward(self, x):
        return _ext.rope_smem_forward(x, self.inv_freq)
