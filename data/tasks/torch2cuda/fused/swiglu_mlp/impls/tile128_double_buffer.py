# strategy: tile128_double_buffer — 128x128x8 block tiles with 8x8 register micro-tiles, float4 global and shared loads, double-buffered shared memory (next k-slice prefetched into registers during the FMAs); the gate GEMM interleaves W1 and W3 rows in one tile so SiLU(a)*b is its epilogue
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// C[m, n] = sum_k A[m, k] * B[n, k]: both operands are K-contiguous (x and h rows, nn.Linear weights).
// A block computes a 128 x 128 tile with 256 threads, each an 8 x 8 micro-tile (rows ty*4+{0..3} and
// 64+ty*4+{0..3}, columns tx*4+{0..3} and 64+tx*4+{0..3}). Shared tiles are stored k-major (transposed)
// with a 132-float row pitch so the transposing stores do not collide on banks and the float4 reads stay
// 16-byte aligned. DUAL: tile columns 0..63 are rows n0..n0+63 of W1 and columns 64..127 the same rows of
// W3, so a thread holds matching gate and up values and writes silu(gate) * up for 64 hidden units.
constexpr int TK = 8;
constexpr int PITCH = 132;

__device__ __forceinline__ float silu_f(float g) { return g / (1.0f + expf(-g)); }

template <bool VECK>
__device__ __forceinline__ float4 load_k4(const float* __restrict__ row, bool ok, int k, int K) {
  if (VECK) {
    return (ok && k < K) ? __ldg(reinterpret_cast<const float4*>(row + k)) : make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
    float4 v;
    v.x = (ok && k < K) ? __ldg(row + k) : 0.0f;
    v.y = (ok && k + 1 < K) ? __ldg(row + k + 1) : 0.0f;
    v.z = (ok && k + 2 < K) ? __ldg(row + k + 2) : 0.0f;
    v.w = (ok && k + 3 < K) ? __ldg(row + k + 3) : 0.0f;
    return v;
  }
}

template <bool DUAL, bool VECK>
__global__ void __launch_bounds__(256) swiglu_tile_gemm_kernel(const float* __restrict__ A, const float* __restrict__ B0,
    const float* __restrict__ B1, float* __restrict__ C, int M, int N, int K, bool vec_out) {
  __shared__ __align__(16) float As[2][TK][PITCH];
  __shared__ __align__(16) float Bs[2][TK][PITCH];
  const int t = threadIdx.x;
  const int tx = t & 15, ty = t >> 4;
  const int m0 = blockIdx.y * 128;
  const int n0 = blockIdx.x * (DUAL ? 64 : 128);
  // loader role: row lr of the A tile and of the B tile, k offset lk inside the k-slice
  const int lr = t >> 1, lk = (t & 1) * 4;
  const int gm = m0 + lr;
  const bool a_ok = gm < M;
  const float* a_row = A + (int64_t)(a_ok ? gm : 0) * K;
  int gn;
  const float* b_src;
  if (DUAL) { gn = n0 + (lr & 63); b_src = lr < 64 ? B0 : B1; }
  else { gn = n0 + lr; b_src = B0; }
  const bool b_ok = gn < N;
  const float* b_row = b_src + (int64_t)(b_ok ? gn : 0) * K;

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  const int ktiles = (K + TK - 1) / TK;
  float4 ra = load_k4<VECK>(a_row, a_ok, lk, K);
  float4 rb = load_k4<VECK>(b_row, b_ok, lk, K);
  As[0][lk][lr] = ra.x; As[0][lk + 1][lr] = ra.y; As[0][lk + 2][lr] = ra.z; As[0][lk + 3][lr] = ra.w;
  Bs[0][lk][lr] = rb.x; Bs[0][lk + 1][lr] = rb.y; Bs[0][lk + 2][lr] = rb.z; Bs[0][lk + 3][lr] = rb.w;
  __syncthreads();
  for (int kt = 0; kt < ktiles; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < ktiles;
    if (more) {  // the next slice travels from global memory while this one is multiplied
      const int k = (kt + 1) * TK + lk;
      ra = load_k4<VECK>(a_row, a_ok, k, K);
      rb = load_k4<VECK>(b_row, b_ok, k, K);
    }
#pragma unroll
    for (int kk = 0; kk < TK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][kk][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][kk][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][kk][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][kk][64 + tx * 4]);
      const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    if (more) {
      const int nxt = cur ^ 1;
      As[nxt][lk][lr] = ra.x; As[nxt][lk + 1][lr] = ra.y; As[nxt][lk + 2][lr] = ra.z; As[nxt][lk + 3][lr] = ra.w;
      Bs[nxt][lk][lr] = rb.x; Bs[nxt][lk + 1][lr] = rb.y; Bs[nxt][lk + 2][lr] = rb.z; Bs[nxt][lk + 3][lr] = rb.w;
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int m = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
    if (m >= M) continue;
    float* crow = C + (int64_t)m * N;
    if (DUAL) {
      const int n = n0 + tx * 4;
      const float o0 = silu_f(acc[i][0]) * acc[i][4], o1 = silu_f(acc[i][1]) * acc[i][5];
      const float o2 = silu_f(acc[i][2]) * acc[i][6], o3 = silu_f(acc[i][3]) * acc[i][7];
      if (vec_out && n < N) {
        *reinterpret_cast<float4*>(crow + n) = make_float4(o0, o1, o2, o3);
      } else {
        if (n < N) crow[n] = o0;
        if (n + 1 < N) crow[n + 1] = o1;
        if (n + 2 < N) crow[n + 2] = o2;
        if (n + 3 < N) crow[n + 3] = o3;
      }
    } else {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int n = n0 + h * 64 + tx * 4;
        const float* a = &acc[i][h * 4];
        if (vec_out && n < N) {
          *reinterpret_cast<float4*>(crow + n) = make_float4(a[0], a[1], a[2], a[3]);
        } else {
#pragma unroll
          for (int c = 0; c < 4; ++c)
            if (n + c < N) crow[n + c] = a[c];
        }
      }
    }
  }
}

static bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

template <bool DUAL>
static void tile_gemm(const float* A, const float* B0, const float* B1, float* C, int64_t M, int64_t N, int64_t K, cudaStream_t st) {
  const bool veck = (K % 4 == 0) && aligned16(A) && aligned16(B0) && (!DUAL || aligned16(B1));
  const bool vec_out = (N % 4 == 0) && aligned16(C);
  const int64_t gx = (N + (DUAL ? 63 : 127)) / (DUAL ? 64 : 128);
  const int64_t gy = (M + 127) / 128;
  TORCH_CHECK(gy <= 65535 && gx <= 2147483647LL, "problem too large for this grid");
  dim3 grid((unsigned)gx, (unsigned)gy);
  if (veck) swiglu_tile_gemm_kernel<DUAL, true><<<grid, 256, 0, st>>>(A, B0, B1, C, (int)M, (int)N, (int)K, vec_out);
  else swiglu_tile_gemm_kernel<DUAL, false><<<grid, 256, 0, st>>>(A, B0, B1, C, (int)M, (int)N, (int)K, vec_out);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor swiglu_tile_forward(torch::Tensor x, torch::Tensor w1, torch::Tensor w3, torch::Tensor w2) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(w1.is_cuda(), "w1 must be a CUDA tensor");
  TORCH_CHECK(w1.scalar_type() == torch::kFloat32, "w1 must be float32");
  TORCH_CHECK(w3.is_cuda(), "w3 must be a CUDA tensor");
  TORCH_CHECK(w3.scalar_type() == torch::kFloat32, "w3 must be float32");
  TORCH_CHECK(w2.is_cuda(), "w2 must be a CUDA tensor");
  TORCH_CHECK(w2.scalar_type() == torch::kFloat32, "w2 must be float32");
  TORCH_CHECK(x.dim() == 2, "x must be (tokens, dim)");
  auto xc = x.contiguous(); auto w1c = w1.contiguous(); auto w3c = w3.contiguous(); auto w2c = w2.contiguous();
  const int64_t T = xc.size(0), D = xc.size(1), Hd = w1c.size(0);
  TORCH_CHECK(w1c.size(1) == D && w3c.size(0) == Hd && w3c.size(1) == D && w2c.size(0) == D && w2c.size(1) == Hd, "shape mismatch");
  TORCH_CHECK(T < 2147483647LL && D < 2147483647LL && Hd < 2147483647LL, "sizes must fit in int");
  auto out = torch::empty({T, D}, xc.options());
  if (T == 0 || D == 0) return out;
  cudaStream_t st = at::cuda::getCurrentCUDAStream();
  auto h = torch::empty({T, Hd}, xc.options());
  if (Hd > 0) tile_gemm<true>(xc.data_ptr<float>(), w1c.data_ptr<float>(), w3c.data_ptr<float>(), h.data_ptr<float>(), T, Hd, D, st);
  // out = h @ W2^T (K = hidden); with hidden == 0 the k loop reads zeros and writes 0
  tile_gemm<false>(h.data_ptr<float>(), w2c.data_ptr<float>(), nullptr, out.data_ptr<float>(), T, D, Hd, st);
  return out;
}
"""

cpp_src = "torch::Tensor swiglu_tile_forward(torch::Tensor x, torch::Tensor w1, torch::Tensor w3, torch::Tensor w2);"

_ext = load_inline(name="t2c_swiglu_tile128", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["swiglu_tile_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return _ext.swiglu_tile_forward(x, self.w1.weight, self.w3.weight, self.w2.weight)
