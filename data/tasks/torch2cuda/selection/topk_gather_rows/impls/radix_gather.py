# strategy: radix_gather — per batch row one block radix-selects the k-th largest score (4 passes of 8-bit shared-memory histograms), compacts the k winners' (score, index) pairs into shared memory and bitonic-sorts only those; then one warp per output row gathers the chosen feature row with float4 loads and scales it
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <climits>

#define NT 512
#define PCAP 2048

__device__ __forceinline__ unsigned desc_key(float f) {
  const unsigned u = __float_as_uint(f);
  return ~((u & 0x80000000u) ? ~u : (u | 0x80000000u));
}
// (v, i) before (w, j): larger score first, then the smaller index
__device__ __forceinline__ bool before_pair(float v, int i, float w, int j) { return v > w || (v == w && i < j); }

__global__ void __launch_bounds__(NT) select_radix_kernel(const float* __restrict__ scores, float* __restrict__ wsel,
                                                          int* __restrict__ isel, int N, int k, int P) {
  __shared__ int hist[256];
  __shared__ float sv[PCAP];
  __shared__ int si[PCAP];
  __shared__ unsigned s_prefix;
  __shared__ int s_want, n_less, n_eq;
  const float* s = scores + (int64_t)blockIdx.x * N;
  const int tid = threadIdx.x;
  unsigned prefix = 0, mask = 0;
  int want = k - 1;
  for (int shift = 24; shift >= 0; shift -= 8) {
    if (tid < 256) hist[tid] = 0;
    __syncthreads();
    for (int i = tid; i < N; i += NT) {
      const unsigned key = desc_key(s[i]);
      if ((key & mask) == prefix) atomicAdd(&hist[(key >> shift) & 255u], 1);
    }
    __syncthreads();
    if (tid < 32) {
      // lane l scans bins 8l..8l+7 after a warp prefix sum of the per-lane totals
      int own = 0;
#pragma unroll
      for (int q = 0; q < 8; ++q) own += hist[tid * 8 + q];
      int inc = own;
      for (int o = 1; o < 32; o <<= 1) {
        const int n = __shfl_up_sync(0xffffffffu, inc, o);
        if (tid >= o) inc += n;
      }
      int before = inc - own;
      if (want >= before && want < inc) {
        for (int q = 0; q < 8; ++q) {
          const int h = hist[tid * 8 + q];
          if (want < before + h) { s_prefix = prefix | ((unsigned)(tid * 8 + q) << shift); s_want = want - before; break; }
          before += h;
        }
      }
    }
    __syncthreads();
    prefix = s_prefix;
    want = s_want;
    mask |= 255u << shift;
  }
  const int less = k - 1 - want;   // keys strictly above the threshold value; want + 1 ties are taken
  if (tid == 0) { n_less = 0; n_eq = 0; }
  for (int i = tid; i < P; i += NT) { sv[i] = -INFINITY; si[i] = INT_MAX; }
  __syncthreads();
  for (int i = tid; i < N; i += NT) {
    const float v = s[i];
    const unsigned key = desc_key(v);
    if (key < prefix) {
      const int e = atomicAdd(&n_less, 1);
      sv[e] = v; si[e] = i;
    } else if (key == prefix) {
      // ties at the threshold (equal scores, improbable for continuous draws): any want + 1 of them
      const int e = atomicAdd(&n_eq, 1);
      if (e <= want) { sv[less + e] = v; si[less + e] = i; }
    }
  }
  __syncthreads();
  for (int size = 2; size <= P; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      for (int t = tid; t < (P >> 1); t += NT) {
        const int i = ((t & ~(stride - 1)) << 1) | (t & (stride - 1));
        const int j = i + stride;
        const bool first = (i & size) == 0;   // this block ends up in "before" order
        const bool jb = before_pair(sv[j], si[j], sv[i], si[i]);
        if (jb == first) {
          const float tv = sv[i]; sv[i] = sv[j]; sv[j] = tv;
          const int ti = si[i]; si[i] = si[j]; si[j] = ti;
        }
      }
      __syncthreads();
    }
  }
  for (int j = tid; j < k; j += NT) {
    wsel[(int64_t)blockIdx.x * k + j] = 1.0f / (1.0f + expf(-sv[j]));
    isel[(int64_t)blockIdx.x * k + j] = si[j];
  }
}

// one warp per output row (b, j): out[b, j, :] = feats[b, isel[b, j], :] * wsel[b, j]
template <bool VEC>
__global__ void __launch_bounds__(256) gather_rows_kernel(const float* __restrict__ feats, const float* __restrict__ wsel,
    const int* __restrict__ isel, float* __restrict__ out, int64_t rowsOut, int k, int N, int D) {
  const int64_t r = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (r >= rowsOut) return;
  const int64_t b = r / k;
  const float w = wsel[r];
  const float* src = feats + (b * N + isel[r]) * (int64_t)D;
  float* dst = out + r * (int64_t)D;
  if (VEC) {
    const float4* s4 = reinterpret_cast<const float4*>(src);
    float4* d4 = reinterpret_cast<float4*>(dst);
    for (int q = lane; q < D / 4; q += 32) {
      float4 v = s4[q];
      v.x *= w; v.y *= w; v.z *= w; v.w *= w;
      d4[q] = v;
    }
  } else {
    for (int d = lane; d < D; d += 32) dst[d] = src[d] * w;
  }
}

torch::Tensor topk_gather_radix_forward(torch::Tensor scores, torch::Tensor feats, int64_t k) {
  TORCH_CHECK(scores.is_cuda() && feats.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(scores.scalar_type() == torch::kFloat32 && feats.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(scores.dim() == 2 && feats.dim() == 3 && feats.size(0) == scores.size(0) && feats.size(1) == scores.size(1),
              "scores (B, N) and feats (B, N, D)");
  TORCH_CHECK(k >= 1 && k <= scores.size(1) && k <= PCAP, "need 1 <= k <= min(N, 2048)");
  TORCH_CHECK(scores.size(1) < (1LL << 31) && feats.size(2) < (1LL << 31), "sizes too large");
  auto sc = scores.contiguous();
  auto fc = feats.contiguous();
  const int64_t B = sc.size(0), N = sc.size(1), D = fc.size(2);
  auto out = torch::empty({B, k, D}, fc.options());
  if (B == 0 || D == 0) return out;
  auto wsel = torch::empty({B, k}, sc.options());
  auto isel = torch::empty({B, k}, sc.options().dtype(torch::kInt32));
  int P = 2;
  while (P < k) P <<= 1;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  select_radix_kernel<<<(unsigned)B, NT, 0, stream>>>(sc.data_ptr<float>(), wsel.data_ptr<float>(), isel.data_ptr<int>(),
                                                      (int)N, (int)k, P);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const int64_t rowsOut = B * k;
  const unsigned blocks = (unsigned)((rowsOut * 32 + 255) / 256);
  const bool vec = D % 4 == 0 && reinterpret_cast<uintptr_t>(fc.data_ptr<float>()) % 16 == 0;
  if (vec)
    gather_rows_kernel<true><<<blocks, 256, 0, stream>>>(fc.data_ptr<float>(), wsel.data_ptr<float>(), isel.data_ptr<int>(),
                                                        out.data_ptr<float>(), rowsOut, (int)k, (int)N, (int)D);
  else
    gather_rows_kernel<false><<<blocks, 256, 0, stream>>>(fc.data_ptr<float>(), wsel.data_ptr<float>(), isel.data_ptr<int>(),
                                                         out.data_ptr<float>(), rowsOut, (int)k, (int)N, (int)D);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor topk_gather_radix_forward(torch::Tensor scores, torch::Tensor feats, int64_t k);"

_ext = load_inline(name="t2c_topk_gather_rows_radix", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["topk_gather_radix_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, scores, feats):
        return _ext.topk_gather_radix_forward(scores, feats, self.k)
