# strategy: flag_tiles — load-balanced regardless of segment lengths: segment starts by a shared-memory Blelloch scan in one block, head flags scattered into a byte map, then a three-phase segmented scan over fixed 4096-element tiles with the (any-head, sum-since-last-head) operator: per-tile aggregates (float4 + 16-byte flag loads, ordered shuffle reduction), one block scans the tile aggregates, every tile rescans with its carry-in
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int kThreads = 256;
constexpr int kPer = 16;
constexpr int kTile = kThreads * kPer;       // 4096
constexpr int kWarpsPerBlock = kThreads / 32;
constexpr int kBlelloch = 2048;              // lengths per Blelloch pass (1024 threads, 2 each)

// segmented-scan pair: f = a segment head occurred in the span, s = sum since the last head (or since the
// span's start when f == 0); a is the earlier span
struct Seg { int f; float s; };
__device__ __forceinline__ Seg seg_combine(Seg a, Seg b) {
  Seg o; o.f = a.f | b.f; o.s = b.f ? b.s : a.s + b.s; return o;
}

// exclusive scan of lengths, 2048 at a time (up-sweep / down-sweep in shared memory) with a running carry
__global__ void __launch_bounds__(1024) seg_starts_blelloch_kernel(const int64_t* __restrict__ lengths, int64_t* __restrict__ starts, int64_t S) {
  __shared__ long long a[kBlelloch];
  long long carry = 0;
  for (int64_t base = 0; base < S; base += kBlelloch) {
    for (int j = threadIdx.x; j < kBlelloch; j += 1024) a[j] = base + j < S ? (long long)lengths[base + j] : 0;
    __syncthreads();
    for (int d = 1; d < kBlelloch; d <<= 1) {           // up-sweep
      const int i = (threadIdx.x + 1) * 2 * d - 1;
      if (i < kBlelloch) a[i] += a[i - d];
      __syncthreads();
    }
    const long long total = a[kBlelloch - 1];
    __syncthreads();
    if (threadIdx.x == 0) a[kBlelloch - 1] = 0;
    __syncthreads();
    for (int d = kBlelloch / 2; d >= 1; d >>= 1) {      // down-sweep
      const int i = (threadIdx.x + 1) * 2 * d - 1;
      if (i < kBlelloch) { const long long t = a[i - d]; a[i - d] = a[i]; a[i] += t; }
      __syncthreads();
    }
    for (int j = threadIdx.x; j < kBlelloch; j += 1024) if (base + j < S) starts[base + j] = carry + a[j];
    carry += total;
    __syncthreads();
  }
}

__global__ void zero_bytes_kernel(uint4* __restrict__ p, int64_t n16) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n16) p[i] = make_uint4(0u, 0u, 0u, 0u);
}

__global__ void set_heads_kernel(const int64_t* __restrict__ starts, unsigned char* __restrict__ flags, int64_t S, int64_t N) {
  const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= S) return;
  const int64_t s = starts[k];
  if (s >= 0 && s < N) flags[s] = 1;
}

__device__ __forceinline__ void load_span(const float* x, const unsigned char* flags, int64_t i0, int64_t N, float* v, int* h) {
  if (i0 + kPer <= N) {
    const float4* xv = reinterpret_cast<const float4*>(x + i0);
#pragma unroll
    for (int q = 0; q < kPer / 4; ++q) {
      const float4 t = __ldg(xv + q);
      v[4 * q] = t.x; v[4 * q + 1] = t.y; v[4 * q + 2] = t.z; v[4 * q + 3] = t.w;
    }
    const uint4 fb = __ldg(reinterpret_cast<const uint4*>(flags + i0));
    const unsigned int wds[4] = {fb.x, fb.y, fb.z, fb.w};
#pragma unroll
    for (int j = 0; j < kPer; ++j) h[j] = (wds[j >> 2] >> (8 * (j & 3))) & 0xffu;
  } else {
#pragma unroll
    for (int j = 0; j < kPer; ++j) {
      const bool in = i0 + j < N;
      v[j] = in ? __ldg(x + i0 + j) : 0.0f;
      h[j] = in ? (int)flags[i0 + j] : 0;
    }
  }
}

// phase 1: aggregate of every tile
__global__ void __launch_bounds__(kThreads) tile_aggregate_kernel(const float* __restrict__ x, const unsigned char* __restrict__ flags,
                                                                 int* __restrict__ af, float* __restrict__ as, int64_t N) {
  __shared__ Seg wagg[kWarpsPerBlock];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int64_t i0 = (int64_t)blockIdx.x * kTile + (int64_t)threadIdx.x * kPer;
  float v[kPer];
  int h[kPer];
  load_span(x, flags, i0, N, v, h);
  Seg a; a.f = 0; a.s = 0.0f;
#pragma unroll
  for (int j = 0; j < kPer; ++j) { if (h[j]) { a.f = 1; a.s = v[j]; } else a.s += v[j]; }
  // ordered tree reduction: lane i combines itself (earlier) with lane i + o (later)
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    Seg b;
    b.f = __shfl_down_sync(0xffffffffu, a.f, o);
    b.s = __shfl_down_sync(0xffffffffu, a.s, o);
    if ((lane & (2 * o - 1)) == 0) a = seg_combine(a, b);
  }
  if (lane == 0) wagg[w] = a;
  __syncthreads();
  if (threadIdx.x == 0) {
    Seg t = wagg[0];
    for (int q = 1; q < kWarpsPerBlock; ++q) t = seg_combine(t, wagg[q]);
    af[blockIdx.x] = t.f;
    as[blockIdx.x] = t.s;
  }
}

// phase 2: exclusive scan of the tile aggregates (one block, 1024 at a time, serial over warp totals)
__global__ void __launch_bounds__(1024) tile_carry_kernel(int* __restrict__ af, float* __restrict__ as, int64_t ntiles) {
  __shared__ Seg wtot[32];
  __shared__ Seg carry_sh;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (threadIdx.x == 0) { carry_sh.f = 0; carry_sh.s = 0.0f; }
  __syncthreads();
  for (int64_t base = 0; base < ntiles; base += 1024) {
    const int64_t t = base + threadIdx.x;
    Seg mine; mine.f = 0; mine.s = 0.0f;
    if (t < ntiles) { mine.f = af[t]; mine.s = as[t]; }
    Seg inc = mine;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      Seg p;
      p.f = __shfl_up_sync(0xffffffffu, inc.f, o);
      p.s = __shfl_up_sync(0xffffffffu, inc.s, o);
      if (lane >= o) inc = seg_combine(p, inc);
    }
    if (lane == 31) wtot[w] = inc;
    __syncthreads();
    if (threadIdx.x == 0) {                 // inclusive over warps, starting from the carry
      Seg c = carry_sh;
      for (int q = 0; q < 32; ++q) { c = seg_combine(c, wtot[q]); wtot[q] = c; }
    }
    __syncthreads();
    // exclusive for this tile: (carry + earlier warps) combined with the earlier lanes of this warp
    Seg before = w > 0 ? wtot[w - 1] : carry_sh;
    Seg lanes_before;
    lanes_before.f = __shfl_up_sync(0xffffffffu, inc.f, 1);
    lanes_before.s = __shfl_up_sync(0xffffffffu, inc.s, 1);
    if (lane > 0) before = seg_combine(before, lanes_before);
    __syncthreads();
    if (t < ntiles) { af[t] = before.f; as[t] = before.s; }
    if (threadIdx.x == 0) carry_sh = wtot[31];
    __syncthreads();
  }
}

// phase 3: rescan every tile from its carry-in
__global__ void __launch_bounds__(kThreads) tile_rescan_kernel(const float* __restrict__ x, const unsigned char* __restrict__ flags,
                                                              const int* __restrict__ af, const float* __restrict__ as,
                                                              float* __restrict__ y, int64_t N) {
  __shared__ Seg wtot[kWarpsPerBlock];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int64_t i0 = (int64_t)blockIdx.x * kTile + (int64_t)threadIdx.x * kPer;
  float v[kPer];
  int h[kPer];
  load_span(x, flags, i0, N, v, h);
  float ls[kPer];
  int hf[kPer];                                   // a head occurred in this thread's span up to j
  Seg a; a.f = 0; a.s = 0.0f;
#pragma unroll
  for (int j = 0; j < kPer; ++j) {
    if (h[j]) { a.f = 1; a.s = v[j]; } else a.s += v[j];
    ls[j] = a.s; hf[j] = a.f;
  }
  Seg inc = a;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    Seg p;
    p.f = __shfl_up_sync(0xffffffffu, inc.f, o);
    p.s = __shfl_up_sync(0xffffffffu, inc.s, o);
    if (lane >= o) inc = seg_combine(p, inc);
  }
  if (lane == 31) wtot[w] = inc;
  __syncthreads();
  Seg before; before.f = af[blockIdx.x]; before.s = as[blockIdx.x];
  for (int q = 0; q < w; ++q) before = seg_combine(before, wtot[q]);
  Seg lanes_before;
  lanes_before.f = __shfl_up_sync(0xffffffffu, inc.f, 1);
  lanes_before.s = __shfl_up_sync(0xffffffffu, inc.s, 1);
  if (lane > 0) before = seg_combine(before, lanes_before);
  float out[kPer];
#pragma unroll
  for (int j = 0; j < kPer; ++j) out[j] = hf[j] ? ls[j] : before.s + ls[j];
  if (i0 + kPer <= N) {
    float4* yv = reinterpret_cast<float4*>(y + i0);
#pragma unroll
    for (int q = 0; q < kPer / 4; ++q) yv[q] = make_float4(out[4 * q], out[4 * q + 1], out[4 * q + 2], out[4 * q + 3]);
  } else {
#pragma unroll
    for (int j = 0; j < kPer; ++j) if (i0 + j < N) y[i0 + j] = out[j];
  }
}

torch::Tensor segcumsum_flags(torch::Tensor x, torch::Tensor lengths) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 1, "x must be a 1D float32 CUDA tensor");
  TORCH_CHECK(lengths.is_cuda() && lengths.scalar_type() == torch::kInt64 && lengths.dim() == 1, "lengths must be 1D int64 on CUDA");
  auto xc = x.contiguous();
  auto lc = lengths.contiguous();
  const int64_t N = xc.numel(), S = lc.numel();
  auto y = torch::empty_like(xc);
  if (N == 0 || S == 0) return y;
  const float* xp = xc.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  TORCH_CHECK(((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0, "x and y must be 16-byte aligned");
  const int64_t ntiles = (N + kTile - 1) / kTile;
  TORCH_CHECK(ntiles < (1LL << 31), "too many tiles");
  const int64_t n16 = (N + 15) / 16;
  auto starts = torch::empty({S}, lc.options());
  auto flags = torch::empty({n16 * 16}, xc.options().dtype(torch::kUInt8));
  auto af = torch::empty({ntiles}, xc.options().dtype(torch::kInt32));
  auto as = torch::empty({ntiles}, xc.options());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  unsigned char* fp = flags.data_ptr<uint8_t>();
  seg_starts_blelloch_kernel<<<1, 1024, 0, stream>>>(lc.data_ptr<int64_t>(), starts.data_ptr<int64_t>(), S);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  zero_bytes_kernel<<<(unsigned)((n16 + 255) / 256), 256, 0, stream>>>(reinterpret_cast<uint4*>(fp), n16);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  set_heads_kernel<<<(unsigned)((S + 255) / 256), 256, 0, stream>>>(starts.data_ptr<int64_t>(), fp, S, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  tile_aggregate_kernel<<<(unsigned)ntiles, kThreads, 0, stream>>>(xp, fp, af.data_ptr<int>(), as.data_ptr<float>(), N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  tile_carry_kernel<<<1, 1024, 0, stream>>>(af.data_ptr<int>(), as.data_ptr<float>(), ntiles);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  tile_rescan_kernel<<<(unsigned)ntiles, kThreads, 0, stream>>>(xp, fp, af.data_ptr<int>(), as.data_ptr<float>(), yp, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor segcumsum_flags(torch::Tensor x, torch::Tensor lengths);"

_ext = load_inline(name="t2c_scans_segcumsum_flags", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["segcumsum_flags"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, lengths):
        return _ext.segcumsum_flags(x, lengths)
