# strategy: chunk_tree — a selection tree spread over many blocks: every chunk (up to 4096 candidates) of a batch row is bitonic-sorted in shared memory by its own block and keeps its best k, rounds repeat on the survivors until one chunk per row remains; then one block per output row gathers the chosen feature row (float4 when aligned)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <climits>

#define CMAX 4096
#define NT 512

// (v, i) before (w, j): larger score first, then the smaller index
__device__ __forceinline__ bool ahead(float v, int i, float w, int j) { return v > w || (v == w && i < j); }

// block (c, b): candidates [c*chunk, min((c+1)*chunk, L)) of row b (row stride L); in_i == nullptr means the
// candidate's index is its position. Sorts the chunk (padded to `chunk`, a power of two) and writes its best
// k pairs to out row b at c*k (row stride nchunks*k).
__global__ void __launch_bounds__(NT) chunk_select_kernel(const float* __restrict__ in_v, const int* __restrict__ in_i,
    float* __restrict__ out_v, int* __restrict__ out_i, int L, int chunk, int nchunks, int k) {
  __shared__ float sv[CMAX];
  __shared__ int si[CMAX];
  const int c = blockIdx.x;
  const int64_t b = blockIdx.y;
  const int base = c * chunk;
  for (int t = threadIdx.x; t < chunk; t += NT) {
    const int g = base + t;
    if (g < L) {
      sv[t] = in_v[b * L + g];
      si[t] = in_i ? in_i[b * L + g] : g;
    } else {
      sv[t] = -INFINITY;
      si[t] = INT_MAX;
    }
  }
  __syncthreads();
  for (int size = 2; size <= chunk; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      for (int t = threadIdx.x; t < (chunk >> 1); t += NT) {
        const int i = ((t & ~(stride - 1)) << 1) | (t & (stride - 1));
        const int j = i + stride;
        const bool fwd = (i & size) == 0;
        const float vi = sv[i], vj = sv[j];
        const int ii = si[i], ij = si[j];
        if (fwd ? ahead(vj, ij, vi, ii) : ahead(vi, ii, vj, ij)) {
          sv[i] = vj; sv[j] = vi;
          si[i] = ij; si[j] = ii;
        }
      }
      __syncthreads();
    }
  }
  const int64_t ob = b * (int64_t)nchunks * k + (int64_t)c * k;
  for (int t = threadIdx.x; t < k; t += NT) {
    out_v[ob + t] = sv[t];
    out_i[ob + t] = si[t];
  }
}

// block (j, b): out[b, j, :] = feats[b, idx[b, j], :] * sigmoid(val[b, j])
template <bool VEC>
__global__ void gather_scaled_kernel(const float* __restrict__ feats, const float* __restrict__ val, const int* __restrict__ idx,
                                     float* __restrict__ out, int N, int k, int D) {
  const int64_t r = (int64_t)blockIdx.y * k + blockIdx.x;
  const float w = 1.0f / (1.0f + expf(-val[r]));
  const float* src = feats + ((int64_t)blockIdx.y * N + idx[r]) * D;
  float* dst = out + r * D;
  if (VEC) {
    const float4* s4 = reinterpret_cast<const float4*>(src);
    float4* d4 = reinterpret_cast<float4*>(dst);
    for (int q = threadIdx.x; q < D / 4; q += blockDim.x) {
      const float4 v = s4[q];
      d4[q] = make_float4(v.x * w, v.y * w, v.z * w, v.w * w);
    }
  } else {
    for (int d = threadIdx.x; d < D; d += blockDim.x) dst[d] = src[d] * w;
  }
}

torch::Tensor topk_gather_tree_forward(torch::Tensor scores, torch::Tensor feats, int64_t k) {
  TORCH_CHECK(scores.is_cuda() && feats.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(scores.scalar_type() == torch::kFloat32 && feats.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(scores.dim() == 2 && feats.dim() == 3 && feats.size(0) == scores.size(0) && feats.size(1) == scores.size(1),
              "scores (B, N) and feats (B, N, D)");
  TORCH_CHECK(k >= 1 && k <= scores.size(1) && k <= CMAX / 2, "need 1 <= k <= min(N, 2048)");
  TORCH_CHECK(scores.size(0) < 65536 && scores.size(1) < (1LL << 30) && feats.size(2) < (1LL << 31), "sizes too large");
  auto sc = scores.contiguous();
  auto fc = feats.contiguous();
  const int64_t B = sc.size(0), N = sc.size(1), D = fc.size(2);
  auto out = torch::empty({B, k, D}, fc.options());
  if (B == 0 || D == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  // round 1 reads the scores; later rounds read the previous round's survivors (ping-pong buffers)
  int64_t L = N;
  const int64_t cap = ((N + CMAX - 1) / CMAX) * k;  // survivors after round 1 bound every later round
  auto va = torch::empty({B, cap}, sc.options());
  auto ia = torch::empty({B, cap}, sc.options().dtype(torch::kInt32));
  auto vb = torch::empty({B, cap}, sc.options());
  auto ib = torch::empty({B, cap}, sc.options().dtype(torch::kInt32));
  const float* cur_v = sc.data_ptr<float>();
  const int* cur_i = nullptr;
  float* nv = va.data_ptr<float>();
  int* ni = ia.data_ptr<int>();
  float* ov = vb.data_ptr<float>();
  int* oi = ib.data_ptr<int>();
  while (true) {
    int64_t chunk = 2;
    while (chunk < L && chunk < CMAX) chunk <<= 1;
    const int64_t nch = (L + chunk - 1) / chunk;
    chunk_select_kernel<<<dim3((unsigned)nch, (unsigned)B), NT, 0, stream>>>(cur_v, cur_i, nv, ni, (int)L, (int)chunk, (int)nch, (int)k);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    L = nch * k;
    cur_v = nv;
    cur_i = ni;
    if (nch == 1) break;
    float* tv = nv; nv = ov; ov = tv;
    int* ti = ni; ni = oi; oi = ti;
  }
  const bool vec = D % 4 == 0 && reinterpret_cast<uintptr_t>(fc.data_ptr<float>()) % 16 == 0;
  const int threads = D >= 512 ? 128 : 64;
  dim3 grid((unsigned)k, (unsigned)B);
  if (vec)
    gather_scaled_kernel<true><<<grid, threads, 0, stream>>>(fc.data_ptr<float>(), cur_v, cur_i, out.data_ptr<float>(), (int)N, (int)k, (int)D);
  else
    gather_scaled_kernel<false><<<grid, threads, 0, stream>>>(fc.data_ptr<float>(), cur_v, cur_i, out.data_ptr<float>(), (int)N, (int)k, (int)D);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor topk_gather_tree_forward(torch::Tensor scores, torch::Tensor feats, int64_t k);"

_ext = load_inline(name="t2c_topk_gather_rows_chunk_tree", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["topk_gather_tree_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, scores, feats):
        return _ext.topk_gather_tree_forward(scores, feats, self.k)
