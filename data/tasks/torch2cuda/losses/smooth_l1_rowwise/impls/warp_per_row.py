# strategy: warp_per_row — one warp per row for every row length (4 rows per 128-thread block), a single pass of streaming float4 loads of both operands (4 float4 per operand and lane in flight, a scalar head/tail peel so rows that do not start 16-byte aligned still vectorise), 4 register partials per lane, a warp-shuffle reduction; no shared memory, no atomics, no second kernel
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// Warp w of block b owns row r = 4 b + w from start to end: lane l reads float4 number l, l + 32, ...
// of the row (512 contiguous bytes per operand and warp-load), 4 of them per operand in flight, with
// evict-first loads (every byte is read once). When the rows are not 16-byte aligned (dim % 4 != 0)
// the first (4 - misalignment) % 4 elements and the last dim - head % 4 go through scalar loads, so
// both operands must share their misalignment (the host checks; otherwise the all-scalar loop). The
// 4 partials of a lane are added in a fixed order, then a butterfly shuffle: deterministic.
constexpr int WPB = 4;  // warps (rows) per block
constexpr int U = 4;    // float4 per operand and lane in flight

__device__ __forceinline__ float sl1_term(float p, float q) {
  const float d = fabsf(p - q);
  return d < 1.0f ? 0.5f * d * d : d - 0.5f;
}
__device__ __forceinline__ float sl1_term4(float4 p, float4 q) {
  return (sl1_term(p.x, q.x) + sl1_term(p.y, q.y)) + (sl1_term(p.z, q.z) + sl1_term(p.w, q.w));
}

__global__ void __launch_bounds__(WPB * 32) sl1_warp_row_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                                                 float* __restrict__ y, int64_t rows, int64_t dim,
                                                                 bool vec) {
  const int lane = threadIdx.x & 31;
  const int64_t r = (int64_t)blockIdx.x * WPB + (threadIdx.x >> 5);
  if (r >= rows) return;  // warp-uniform: the whole warp leaves before any shuffle
  const float* ar = a + r * dim;
  const float* br = b + r * dim;
  float acc[U];
#pragma unroll
  for (int u = 0; u < U; ++u) acc[u] = 0.0f;
  if (vec) {
    const int mis = (int)((reinterpret_cast<uintptr_t>(ar) >> 2) & 3);  // floats past a 16-byte boundary
    int64_t head = (4 - mis) & 3;
    if (head > dim) head = dim;
    if (lane < head) acc[0] += sl1_term(__ldcs(ar + lane), __ldcs(br + lane));
    const int64_t n4 = (dim - head) >> 2;
    const float4* a4 = reinterpret_cast<const float4*>(ar + head);
    const float4* b4 = reinterpret_cast<const float4*>(br + head);
    int64_t k = lane;
    for (; k + 32 * (U - 1) < n4; k += 32 * U) {
      float4 pa[U], pb[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        pa[u] = __ldcs(a4 + k + 32 * u);
        pb[u] = __ldcs(b4 + k + 32 * u);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) acc[u] += sl1_term4(pa[u], pb[u]);
    }
    for (; k < n4; k += 32) acc[1] += sl1_term4(__ldcs(a4 + k), __ldcs(b4 + k));
    const int64_t t = head + 4 * n4 + lane;  // at most 3 tail elements
    if (t < dim) acc[2] += sl1_term(__ldcs(ar + t), __ldcs(br + t));
  } else {
    int64_t k = lane;
    for (; k + 32 * (U - 1) < dim; k += 32 * U) {
      float pa[U], pb[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        pa[u] = __ldcs(ar + k + 32 * u);
        pb[u] = __ldcs(br + k + 32 * u);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) acc[u] += sl1_term(pa[u], pb[u]);
    }
    for (; k < dim; k += 32) acc[1] += sl1_term(__ldcs(ar + k), __ldcs(br + k));
  }
  float s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[r] = s / (float)dim;
}

torch::Tensor smooth_l1_rowwise_warp_forward(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.is_cuda(), "a must be a CUDA tensor");
  TORCH_CHECK(a.scalar_type() == torch::kFloat32, "a must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(a.sizes() == b.sizes(), "inputs must share one shape");
  TORCH_CHECK(a.dim() >= 1, "inputs need a last dim");
  auto ac = a.contiguous(); auto bc = b.contiguous();
  const int64_t dim = ac.size(-1);
  TORCH_CHECK(dim > 0, "empty rows");
  const int64_t rows = ac.numel() / dim;
  auto out = torch::empty({rows}, ac.options());
  if (rows == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float* ap = ac.data_ptr<float>(); const float* bp = bc.data_ptr<float>();
  // float4 path: both operands with the same offset from a 16-byte boundary (then every row of both is
  // misaligned alike and the same head peel aligns both)
  const bool vec = ((reinterpret_cast<uintptr_t>(ap) ^ reinterpret_cast<uintptr_t>(bp)) & 15) == 0 &&
                   (reinterpret_cast<uintptr_t>(ap) & 3) == 0;
  const int64_t blocks = (rows + WPB - 1) / WPB;
  TORCH_CHECK(blocks <= 0x7fffffffLL, "too many rows");
  sl1_warp_row_kernel<<<(unsigned)blocks, WPB * 32, 0, stream>>>(ap, bp, out.data_ptr<float>(), rows, dim, vec);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor smooth_l1_rowwise_warp_forward(torch::Tensor a, torch::Tensor b);"

_ext = load_inline(name="t2c_smooth_l1_rowwise_warp_per_row", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["smooth_l1_rowwise_warp_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, pred, target):
        return _ext.smooth_l1_rowwise_warp_forward(pred, target)
