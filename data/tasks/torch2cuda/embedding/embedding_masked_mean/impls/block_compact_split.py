# strategy: block_compact_split — one 256-thread block per batch row: each chunk of 256 positions is stream-compacted in shared memory (warp ballots plus a prefix over the 8 warps keep the non-pad ids in order), then the block splits into G row groups of P column threads (P = D/4 rounded up to 32, G = 256 / P) that read the compacted rows with float4 loads, and the G partial sums are combined in a fixed order (deterministic)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int NT = 256;
constexpr int NW = NT / 32;

template <bool VEC>
__global__ void __launch_bounds__(NT) emm_block_kernel(const int64_t* __restrict__ ids, const float* __restrict__ w,
                                                       float* __restrict__ y, int64_t S, int64_t V, int64_t D,
                                                       int64_t pad) {
  __shared__ int64_t sh_ids[NT];
  __shared__ int sh_wcount[NW];
  __shared__ float4 partial[NT];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int64_t b = blockIdx.x;
  const int64_t* row_ids = ids + b * S;
  float* yr = y + b * D;
  const int64_t units = VEC ? D / 4 : D;
  const int P = units >= NT ? NT : (int)((units + 31) / 32) * 32;   // column threads per group
  const int G = NT / P;                                             // row groups
  const int g = tid / P, cl = tid - g * P;
  const unsigned lt_mask = (1u << lane) - 1u;
  for (int64_t c0 = 0; c0 < units; c0 += P) {
    const int64_t c = c0 + cl;
    const bool active = g < G && c < units;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    int64_t n = 0;
    for (int64_t s0 = 0; s0 < S; s0 += NT) {
      const int64_t s = s0 + tid;
      const int64_t id = s < S ? __ldg(row_ids + s) : pad;
      const bool keep = s < S && id != pad;
      const unsigned bal = __ballot_sync(0xffffffffu, keep);
      if (lane == 0) sh_wcount[warp] = __popc(bal);
      __syncthreads();
      int base = 0, cnt = 0;
#pragma unroll
      for (int k = 0; k < NW; ++k) {
        const int v = sh_wcount[k];
        base += k < warp ? v : 0;
        cnt += v;
      }
      if (keep) sh_ids[base + __popc(bal & lt_mask)] = id;   // stable: positions keep their order
      __syncthreads();
      if (active) {
        for (int r = g; r < cnt; r += G) {
          const int64_t rid = sh_ids[r];
          if (rid < 0 || rid >= V) { acc = make_float4(NAN, NAN, NAN, NAN); continue; }
          if (VEC) {
            const float4 v = __ldg(reinterpret_cast<const float4*>(w + rid * D) + c);
            acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
          } else {
            acc.x += __ldg(w + rid * D + c);
          }
        }
      }
      n += cnt;
      __syncthreads();   // sh_ids and sh_wcount are rewritten by the next chunk
    }
    if (g < G) partial[g * P + cl] = acc;
    __syncthreads();
    if (g == 0 && c < units) {
      float4 sum = partial[cl];
      for (int k = 1; k < G; ++k) {   // fixed order: the result does not depend on scheduling
        const float4 p = partial[k * P + cl];
        sum.x += p.x; sum.y += p.y; sum.z += p.z; sum.w += p.w;
      }
      const float den = n > 0 ? (float)n : 1.0f;
      if (VEC) reinterpret_cast<float4*>(yr)[c] = make_float4(sum.x / den, sum.y / den, sum.z / den, sum.w / den);
      else yr[c] = sum.x / den;
    }
    __syncthreads();   // partial is rewritten by the next column tile
  }
}

torch::Tensor emm_block_forward(torch::Tensor ids, torch::Tensor weight, int64_t pad) {
  TORCH_CHECK(ids.is_cuda() && ids.scalar_type() == torch::kInt64 && ids.dim() == 2, "ids must be CUDA int64 (B, S)");
  TORCH_CHECK(weight.is_cuda() && weight.scalar_type() == torch::kFloat32 && weight.dim() == 2, "weight must be CUDA float32 (V, D)");
  auto ic = ids.contiguous(); auto wc = weight.contiguous();
  const int64_t B = ic.size(0), S = ic.size(1), V = wc.size(0), D = wc.size(1);
  auto out = torch::empty({B, D}, wc.options());
  if (B * D == 0) return out;
  TORCH_CHECK(B <= 2147483647LL, "too many rows");
  const bool vec = (D % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(wc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  if (vec) {
    emm_block_kernel<true><<<(unsigned)B, NT, 0, stream>>>(ic.data_ptr<int64_t>(), wc.data_ptr<float>(),
                                                           out.data_ptr<float>(), S, V, D, pad);
  } else {
    emm_block_kernel<false><<<(unsigned)B, NT, 0, stream>>>(ic.data_ptr<int64_t>(), wc.data_ptr<float>(),
                                                            out.data_ptr<float>(), S, V, D, pad);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor emm_block_forward(torch::Tensor ids, torch::Tensor weight, int64_t pad);"

_ext = load_inline(name="t2c_embedding_masked_mean_block", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["emm_block_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, vocab_size, dim, pad_id):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=pad_id)
        self.pad_id = pad_id

    def forward(self, ids):
        return _ext.emm_block_forward(ids, self.emb.weight, self.pad_id)
