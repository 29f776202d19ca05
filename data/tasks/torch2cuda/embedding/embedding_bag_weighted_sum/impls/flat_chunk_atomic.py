# strategy: flat_chunk_atomic — load balanced over the ids, not the bags: each warp takes 32 consecutive (id, weight) positions whatever bags they belong to (its first bag found by a binary search of the offsets), accumulates float4 column slices per bag segment, stores segments of bags wholly inside its chunk and atomically adds the partial sums of bags that cross a chunk edge into a zero-filled output
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int CHUNK = 32;   // positions of ids per warp (one per lane, broadcast with shuffles)

__global__ void ebws_zero_kernel(float* __restrict__ y, int64_t n) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) y[i] = 0.0f;
}

template <bool VEC>
__device__ __forceinline__ void flush(float* __restrict__ yr, int64_t c, float4 a, bool whole) {
  if (whole) {   // no other warp touches this bag
    if (VEC) reinterpret_cast<float4*>(yr)[c] = a;
    else yr[c] = a.x;
  } else if (VEC) {
    atomicAdd(yr + 4 * c, a.x); atomicAdd(yr + 4 * c + 1, a.y);
    atomicAdd(yr + 4 * c + 2, a.z); atomicAdd(yr + 4 * c + 3, a.w);
  } else {
    atomicAdd(yr + c, a.x);
  }
}

template <bool VEC>
__global__ void ebws_flat_kernel(const int64_t* __restrict__ ids, const int64_t* __restrict__ offsets,
                                 const float* __restrict__ psw, const float* __restrict__ w, float* __restrict__ y,
                                 int64_t B, int64_t T, int64_t V, int64_t D) {
  const int lane = threadIdx.x & 31;
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int64_t end_all = __ldg(offsets + B);   // positions past the last offset belong to no bag
  if (end_all > T) end_all = T;
  const int64_t j0 = warp * CHUNK;
  if (j0 >= end_all) return;               // warp-uniform
  const int64_t j1 = j0 + CHUNK < end_all ? j0 + CHUNK : end_all;
  const int cnt = (int)(j1 - j0);
  // the bag holding position j0: the last bag whose start is <= j0 (empty bags share starts, the last of them is non-empty)
  int64_t lo = 0, hi = B - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) >> 1;
    if (__ldg(offsets + mid) <= j0) lo = mid; else hi = mid - 1;
  }
  const int64_t bag0 = lo;
  const bool mine = lane < cnt;
  const int64_t my_id = mine ? __ldg(ids + j0 + lane) : 0;
  const float my_p = mine ? __ldg(psw + j0 + lane) : 0.0f;
  const int64_t units = VEC ? D / 4 : D;
  for (int64_t c0 = 0; c0 < units; c0 += 32) {
    const int64_t c = c0 + lane;
    const bool active = c < units;
    int64_t bag = bag0;
    int64_t bstart = __ldg(offsets + bag), bend = __ldg(offsets + bag + 1);
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    bool has = false;
    for (int jj = 0; jj < cnt; ++jj) {
      const int64_t j = j0 + jj;
      while (j >= bend) {   // warp-uniform: bag boundaries are the same for every lane
        if (has && active) flush<VEC>(y + bag * D, c, acc, bstart >= j0 && bend <= j1);
        acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        has = false;
        ++bag;
        bstart = bend;
        bend = __ldg(offsets + bag + 1);
      }
      const int64_t id = __shfl_sync(0xffffffffu, my_id, jj);
      const float p = __shfl_sync(0xffffffffu, my_p, jj);
      has = true;
      if (!active) continue;
      if (id < 0 || id >= V) { acc = make_float4(NAN, NAN, NAN, NAN); continue; }
      if (VEC) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(w + id * D) + c);
        acc.x += p * v.x; acc.y += p * v.y; acc.z += p * v.z; acc.w += p * v.w;
      } else {
        acc.x += p * __ldg(w + id * D + c);
      }
    }
    if (has && active) flush<VEC>(y + bag * D, c, acc, bstart >= j0 && bend <= j1);
  }
}

torch::Tensor ebws_flat_forward(torch::Tensor ids, torch::Tensor offsets, torch::Tensor psw, torch::Tensor weight) {
  TORCH_CHECK(ids.is_cuda() && ids.scalar_type() == torch::kInt64 && ids.dim() == 1, "ids must be CUDA int64 (T,)");
  TORCH_CHECK(offsets.is_cuda() && offsets.scalar_type() == torch::kInt64 && offsets.dim() == 1 && offsets.size(0) >= 1,
              "offsets must be CUDA int64 (B + 1,)");
  TORCH_CHECK(psw.is_cuda() && psw.scalar_type() == torch::kFloat32 && psw.dim() == 1 && psw.size(0) == ids.size(0),
              "per_sample_weights must be CUDA float32 (T,)");
  TORCH_CHECK(weight.is_cuda() && weight.scalar_type() == torch::kFloat32 && weight.dim() == 2, "weight must be CUDA float32 (V, D)");
  auto ic = ids.contiguous(); auto oc = offsets.contiguous(); auto pc = psw.contiguous(); auto wc = weight.contiguous();
  const int64_t T = ic.size(0), B = oc.size(0) - 1, V = wc.size(0), D = wc.size(1);
  auto out = torch::empty({B, D}, wc.options());
  if (B * D == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  int64_t zb = (B * D + 255) / 256;
  if (zb > 8192) zb = 8192;
  ebws_zero_kernel<<<(unsigned)zb, 256, 0, stream>>>(out.data_ptr<float>(), B * D);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  if (T == 0) return out;   // every bag is empty
  const bool vec = (D % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(wc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0);
  const int64_t warps = (T + CHUNK - 1) / CHUNK;
  const int64_t blocks = (warps + 7) / 8;   // 8 warps per block
  TORCH_CHECK(blocks <= 2147483647LL, "too many ids");
  if (vec) {
    ebws_flat_kernel<true><<<(unsigned)blocks, 256, 0, stream>>>(ic.data_ptr<int64_t>(), oc.data_ptr<int64_t>(),
        pc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(), B, T, V, D);
  } else {
    ebws_flat_kernel<false><<<(unsigned)blocks, 256, 0, stream>>>(ic.data_ptr<int64_t>(), oc.data_ptr<int64_t>(),
        pc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(), B, T, V, D);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor ebws_flat_forward(torch::Tensor ids, torch::Tensor offsets, torch::Tensor psw, torch::Tensor weight);"

_ext = load_inline(name="t2c_embedding_bag_weighted_sum_flat", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["ebws_flat_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, num_embeddings, dim):
        super().__init__()
        self.bag = nn.EmbeddingBag(num_embeddings, dim, mode="sum", include_last_offset=True)

    def forward(self, ids, offsets, per_sample_weights):
        return _ext.ebws_flat_forward(ids, offsets, per_sample_weights, self.bag.weight)
