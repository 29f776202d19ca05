# strategy: regblock_flash — 128x128 double-buffered SGEMM (8x8 register micro-tile, float4 k-loads, bias in the epilogue) for both projections, and a flash kernel with 2-D register blocking (4x4 scores and 4 x D/8 outputs per thread, warp-shuffle online softmax in base 2) reading q/k/v in place from the packed projection
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// ---- projections: C[M, N] = A[M, K] . W[N, K]^T + bias (nn.Linear layout; both operands k-contiguous)
// 128x128 block tile, k-step 8, 256 threads; each thread owns an 8x8 micro-tile (rows ty*4+{0..3} and
// 64+ty*4+{0..3}, columns tx*4+{0..3} and 64+tx*4+{0..3}) so every shared-memory read is a float4.
// Each thread fetches one float4 of A and one of W per k-step (a row, 4 consecutive k) into registers
// while the current tile is consumed, and stores it transposed into the other shared buffer: one
// barrier per k-step. VEC: K % 4 == 0, N % 4 == 0 and 16-byte aligned operands (float4 loads/stores).
constexpr int GM = 128, GN = 128, GK = 8, GT = 256;

template <bool VEC>
__device__ __forceinline__ float4 fetch_k4(const float* row, bool row_ok, int k, int K) {
  float4 r = make_float4(0.f, 0.f, 0.f, 0.f);
  if (!row_ok) return r;
  if (VEC) {
    if (k < K) r = *reinterpret_cast<const float4*>(row + k);
  } else {
    if (k < K) r.x = row[k];
    if (k + 1 < K) r.y = row[k + 1];
    if (k + 2 < K) r.z = row[k + 2];
    if (k + 3 < K) r.w = row[k + 3];
  }
  return r;
}

template <bool VEC>
__global__ void __launch_bounds__(GT) mha_gemm_nt_kernel(const float* __restrict__ A, const float* __restrict__ W,
                                                        const float* __restrict__ bias, float* __restrict__ C,
                                                        int M, int N, int K) {
  __shared__ __align__(16) float As[2][GK][GM + 4];
  __shared__ __align__(16) float Ws[2][GK][GN + 4];
  const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
  const int m0 = blockIdx.y * GM, n0 = blockIdx.x * GN;
  const int lrow = tid >> 1, lk = (tid & 1) * 4;
  const bool a_ok = m0 + lrow < M, w_ok = n0 + lrow < N;
  const float* Arow = A + (int64_t)min(m0 + lrow, M - 1) * K;
  const float* Wrow = W + (int64_t)min(n0 + lrow, N - 1) * K;
  float4 ra = fetch_k4<VEC>(Arow, a_ok, lk, K);
  float4 rw = fetch_k4<VEC>(Wrow, w_ok, lk, K);
  As[0][lk + 0][lrow] = ra.x; As[0][lk + 1][lrow] = ra.y; As[0][lk + 2][lrow] = ra.z; As[0][lk + 3][lrow] = ra.w;
  Ws[0][lk + 0][lrow] = rw.x; Ws[0][lk + 1][lrow] = rw.y; Ws[0][lk + 2][lrow] = rw.z; Ws[0][lk + 3][lrow] = rw.w;
  __syncthreads();
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  const int nk = (K + GK - 1) / GK;
  for (int kt = 0; kt < nk; ++kt) {
    const int cur = kt & 1;
    const bool more = kt + 1 < nk;
    if (more) {
      ra = fetch_k4<VEC>(Arow, a_ok, (kt + 1) * GK + lk, K);
      rw = fetch_k4<VEC>(Wrow, w_ok, (kt + 1) * GK + lk, K);
    }
#pragma unroll
    for (int kk = 0; kk < GK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][kk][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][kk][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Ws[cur][kk][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Ws[cur][kk][64 + tx * 4]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
    }
    if (more) {
      const int nx = cur ^ 1;
      As[nx][lk + 0][lrow] = ra.x; As[nx][lk + 1][lrow] = ra.y; As[nx][lk + 2][lrow] = ra.z; As[nx][lk + 3][lrow] = ra.w;
      Ws[nx][lk + 0][lrow] = rw.x; Ws[nx][lk + 1][lrow] = rw.y; Ws[nx][lk + 2][lrow] = rw.z; Ws[nx][lk + 3][lrow] = rw.w;
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int m = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
    if (m >= M) continue;
    float* crow = C + (int64_t)m * N;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int n = n0 + half * 64 + tx * 4;
      if (VEC) {
        if (n < N) {
          float4 r;
          r.x = acc[i][half * 4 + 0] + bias[n + 0];
          r.y = acc[i][half * 4 + 1] + bias[n + 1];
          r.z = acc[i][half * 4 + 2] + bias[n + 2];
          r.w = acc[i][half * 4 + 3] + bias[n + 3];
          *reinterpret_cast<float4*>(crow + n) = r;
        }
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (n + j < N) crow[n + j] = acc[i][half * 4 + j] + bias[n + j];
      }
    }
  }
}

static void gemm_nt(const float* A, const float* W, const float* bias, float* C, int64_t M, int64_t N, int64_t K,
                    cudaStream_t stream) {
  TORCH_CHECK(M < (1LL << 31) && N < (1LL << 31) && K < (1LL << 31), "GEMM dimension too large");
  const bool vec = (K % 4 == 0) && (N % 4 == 0) &&
                   ((reinterpret_cast<uintptr_t>(A) | reinterpret_cast<uintptr_t>(W) | reinterpret_cast<uintptr_t>(C)) & 15) == 0;
  dim3 grid((unsigned)((N + GN - 1) / GN), (unsigned)((M + GM - 1) / GM));
  TORCH_CHECK(grid.y <= 65535, "too many rows for grid.y");
  if (vec) mha_gemm_nt_kernel<true><<<grid, GT, 0, stream>>>(A, W, bias, C, (int)M, (int)N, (int)K);
  else mha_gemm_nt_kernel<false><<<grid, GT, 0, stream>>>(A, W, bias, C, (int)M, (int)N, (int)K);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// ---- attention over the packed projection qkv (token, 3E): one block = 64 queries of one (batch, head),
// 128 threads as a 16 x 8 grid (ty, tx). Per key tile of 32: thread (ty, tx) computes the scores of rows
// ty*4..ty*4+3 against keys tx, tx+8, tx+16, tx+24 (q tile stored d-major in shared memory: the 4 rows
// are one float4), reduces the row max across its 8-lane group with shuffles, writes exp2 probabilities
// to shared memory and, after a barrier, accumulates P.V for its 4 rows and output columns tx + 8c
// (c < D/8). log2(e)/sqrt(D) is folded into q; row denominators stay per-thread partials until the end.
// The head's output goes straight into the merged (token, E) layout the output projection reads.
// E = H*D is a multiple of 8 and qkv is this extension's own allocation: every float4 is aligned.
constexpr int BR = 64, BC = 32, NT = 128;

__device__ __forceinline__ float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }

template <int D>
__global__ void __launch_bounds__(NT) mha_attn_regblock_kernel(const float* __restrict__ qkv, float* __restrict__ y, int S, int H,
                                                              float qscale) {
  static_assert(D % 8 == 0 && D <= 64, "head_dim must be a multiple of 8, at most 64");
  constexpr int NC = D / 8;  // output columns per thread
  __shared__ __align__(16) float Qs[D][BR + 4];
  __shared__ float Ks[BC][D + 1];
  __shared__ __align__(16) float Vs[BC][D];
  __shared__ __align__(16) float Ps[BC][BR + 4];
  const int tid = threadIdx.x, tx = tid & 7, ty = tid >> 3;
  const int q0 = blockIdx.x * BR;
  const int b = blockIdx.y / H, h = blockIdx.y % H;
  const int64_t E = (int64_t)H * D, ld = 3 * E;  // row stride of the packed (token, 3E) projection
  const float* qb = qkv + (int64_t)b * S * ld + (int64_t)h * D;
  const float* kb = qb + E;
  const float* vb = qb + 2 * E;

  for (int e = tid; e < BR * (D / 4); e += NT) {
    const int r = e / (D / 4), c4 = (e % (D / 4)) * 4;
    const int gi = q0 + r;
    float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
    if (gi < S) x = load4(qb + (int64_t)gi * ld + c4);
    Qs[c4 + 0][r] = x.x * qscale;
    Qs[c4 + 1][r] = x.y * qscale;
    Qs[c4 + 2][r] = x.z * qscale;
    Qs[c4 + 3][r] = x.w * qscale;
  }

  float acc[4][NC];
  float m[4], l[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.f;
#pragma unroll
    for (int c = 0; c < NC; ++c) acc[r][c] = 0.f;
  }
  const int kv_end = S;
  for (int j0 = 0; j0 < kv_end; j0 += BC) {
#pragma unroll 1
    for (int e = tid; e < BC * (D / 4); e += NT) {
      const int r = e / (D / 4), c4 = (e % (D / 4)) * 4;
      const int gj = j0 + r;
      float4 kx = make_float4(0.f, 0.f, 0.f, 0.f), vx = kx;
      if (gj < S) {
        kx = load4(kb + (int64_t)gj * ld + c4);
        vx = load4(vb + (int64_t)gj * ld + c4);
      }
      Ks[r][c4 + 0] = kx.x; Ks[r][c4 + 1] = kx.y; Ks[r][c4 + 2] = kx.z; Ks[r][c4 + 3] = kx.w;
      *reinterpret_cast<float4*>(&Vs[r][c4]) = vx;
    }
    __syncthreads();
    float s[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 4; ++c) s[r][c] = 0.f;
#pragma unroll 16
    for (int d = 0; d < D; ++d) {
      const float4 qa = *reinterpret_cast<const float4*>(&Qs[d][ty * 4]);
      float kk[4];
#pragma unroll
      for (int c = 0; c < 4; ++c) kk[c] = Ks[tx + 8 * c][d];
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        s[0][c] = fmaf(qa.x, kk[c], s[0][c]);
        s[1][c] = fmaf(qa.y, kk[c], s[1][c]);
        s[2][c] = fmaf(qa.z, kk[c], s[2][c]);
        s[3][c] = fmaf(qa.w, kk[c], s[3][c]);
      }
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      float mx = -INFINITY;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int gj = j0 + tx + 8 * c;
        const bool ok = gj < S;
        s[r][c] = ok ? s[r][c] : -INFINITY;
        mx = fmaxf(mx, s[r][c]);
      }
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 4));
      const float mnew = fmaxf(m[r], mx);
      const float muse = (mnew == -INFINITY) ? 0.f : mnew;  // a fully masked row so far: p = 0, no NaN
      const float corr = exp2f(m[r] - muse);
      float ps = 0.f;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        s[r][c] = exp2f(s[r][c] - muse);
        ps += s[r][c];
      }
      l[r] = fmaf(l[r], corr, ps);
      m[r] = mnew;
#pragma unroll
      for (int c = 0; c < NC; ++c) acc[r][c] *= corr;
    }
#pragma unroll
    for (int c = 0; c < 4; ++c)
      *reinterpret_cast<float4*>(&Ps[tx + 8 * c][ty * 4]) = make_float4(s[0][c], s[1][c], s[2][c], s[3][c]);
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < BC; ++j) {
      const float4 p = *reinterpret_cast<const float4*>(&Ps[j][ty * 4]);
#pragma unroll
      for (int c = 0; c < NC; ++c) {
        const float vv = Vs[j][tx + 8 * c];
        acc[0][c] = fmaf(p.x, vv, acc[0][c]);
        acc[1][c] = fmaf(p.y, vv, acc[1][c]);
        acc[2][c] = fmaf(p.z, vv, acc[2][c]);
        acc[3][c] = fmaf(p.w, vv, acc[3][c]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    float lt = l[r];
    lt += __shfl_xor_sync(0xffffffffu, lt, 1);
    lt += __shfl_xor_sync(0xffffffffu, lt, 2);
    lt += __shfl_xor_sync(0xffffffffu, lt, 4);
    const int gi = q0 + ty * 4 + r;
    if (gi < S) {
      const float inv = 1.0f / lt;
      float* orow = y + ((int64_t)b * S + gi) * E + (int64_t)h * D;  // merged-head layout
#pragma unroll
      for (int c = 0; c < NC; ++c) orow[tx + 8 * c] = acc[r][c] * inv;
    }
  }
}

torch::Tensor mha_regblock_forward(torch::Tensor x, torch::Tensor wqkv, torch::Tensor bqkv, torch::Tensor wo,
                                   torch::Tensor bo, int64_t heads) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(wqkv.is_cuda(), "wqkv must be a CUDA tensor");
  TORCH_CHECK(wqkv.scalar_type() == torch::kFloat32, "wqkv must be float32");
  TORCH_CHECK(bqkv.is_cuda(), "bqkv must be a CUDA tensor");
  TORCH_CHECK(bqkv.scalar_type() == torch::kFloat32, "bqkv must be float32");
  TORCH_CHECK(wo.is_cuda(), "wo must be a CUDA tensor");
  TORCH_CHECK(wo.scalar_type() == torch::kFloat32, "wo must be float32");
  TORCH_CHECK(bo.is_cuda(), "bo must be a CUDA tensor");
  TORCH_CHECK(bo.scalar_type() == torch::kFloat32, "bo must be float32");
  TORCH_CHECK(x.dim() == 3, "x must be (batch, seq, embed)");
  auto xc = x.contiguous(); auto Wq = wqkv.contiguous(); auto Bq = bqkv.contiguous();
  auto Wo = wo.contiguous(); auto Bo = bo.contiguous();
  const int64_t B = xc.size(0), S = xc.size(1), E = xc.size(2);
  TORCH_CHECK(heads > 0 && E % heads == 0, "embed_dim must divide into heads");
  TORCH_CHECK(Wq.size(0) == 3 * E && Wq.size(1) == E && Wo.size(0) == E && Wo.size(1) == E, "weight shape mismatch");
  TORCH_CHECK(Bq.numel() == 3 * E && Bo.numel() == E, "bias shape mismatch");
  const int64_t H = heads, Dh = E / heads, T = B * S;
  auto out = torch::empty({B, S, E}, xc.options());
  if (T == 0 || E == 0) return out;
  TORCH_CHECK(B * H <= 65535, "batch*heads too large for grid.y");
  TORCH_CHECK(S < (1LL << 31), "sequence too long");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  auto qkv = torch::empty({T, 3 * E}, xc.options());
  auto y = torch::empty({T, E}, xc.options());
  gemm_nt(xc.data_ptr<float>(), Wq.data_ptr<float>(), Bq.data_ptr<float>(), qkv.data_ptr<float>(), T, 3 * E, E, stream);
  {
    dim3 grid((unsigned)((S + BR - 1) / BR), (unsigned)(B * H));
    const float qscale = 1.4426950408889634f / sqrtf((float)Dh);  // log2(e) / sqrt(Dh)
    const float* qp = qkv.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    switch (Dh) {
      case 8: mha_attn_regblock_kernel<8><<<grid, NT, 0, stream>>>(qp, yp, (int)S, (int)H, qscale); break;
      case 16: mha_attn_regblock_kernel<16><<<grid, NT, 0, stream>>>(qp, yp, (int)S, (int)H, qscale); break;
      case 32: mha_attn_regblock_kernel<32><<<grid, NT, 0, stream>>>(qp, yp, (int)S, (int)H, qscale); break;
      case 64: mha_attn_regblock_kernel<64><<<grid, NT, 0, stream>>>(qp, yp, (int)S, (int)H, qscale); break;
      default: TORCH_CHECK(false, "head_dim must be one of 8, 16, 32, 64");
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  gemm_nt(y.data_ptr<float>(), Wo.data_ptr<float>(), Bo.data_ptr<float>(), out.data_ptr<float>(), T, E, E, stream);
  return out;
}
"""

cpp_src = ("torch::Tensor mha_regblock_forward(torch::Tensor x, torch::Tensor wqkv, torch::Tensor bqkv, torch::Tensor wo, "
           "torch::Tensor bo, int64_t heads);")

_ext = load_inline(name="t2c_mha_regblock_flash", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["mha_regblock_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        return _ext.mha_regblock_forward(x, self.qkv.weight, self.qkv.bias, self.proj.weight, self.proj.bias,
                                         int(self.num_heads))
