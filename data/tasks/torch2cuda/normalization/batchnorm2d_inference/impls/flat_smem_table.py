# strategy: flat_smem_table — one persistent grid-stride sweep over the whole tensor as a flat array (float4 when each plane is a multiple of 4), four loads in flight per thread, the channel's (mean, scale, bias) looked up per item in a per-block shared-memory table built once
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <cfloat>

// table entry of channel c: (running mean, weight / sqrt(running var + eps), bias)
__device__ __forceinline__ float4 bn_entry(const float* __restrict__ rm, const float* __restrict__ rv,
                                           const float* __restrict__ w, const float* __restrict__ b, int64_t c, float eps) {
  const float sc = __ldg(w + c) * (1.0f / sqrtf(__ldg(rv + c) + eps));
  return make_float4(__ldg(rm + c), sc, __ldg(b + c), 0.0f);
}
__device__ __forceinline__ float bn_apply(float v, float4 t) { return fmaf(v - t.x, t.y, t.z); }
__device__ __forceinline__ float4 bn_apply4(float4 v, float4 t) {
  return make_float4(bn_apply(v.x, t), bn_apply(v.y, t), bn_apply(v.z, t), bn_apply(v.w, t));
}

// VEC: items are float4 (plane length % 4 == 0, aligned storage) and never straddle two planes;
// TABLE: the C entries fit in shared memory (else each item derives its entry from the L1-cached
// parameters); I: the index type (32-bit divisions where the item count allows)
template <bool VEC, bool TABLE, typename I>
__global__ void __launch_bounds__(256) bn_flat_kernel(const float* __restrict__ x, const float* __restrict__ rm,
    const float* __restrict__ rv, const float* __restrict__ w, const float* __restrict__ b, float* __restrict__ y,
    I items, I plane_items, I C, float eps) {
  extern __shared__ float4 table[];
  if (TABLE) {
    for (I c = threadIdx.x; c < C; c += blockDim.x) table[c] = bn_entry(rm, rv, w, b, (int64_t)c, eps);
    __syncthreads();
  }
  const I stride = (I)gridDim.x * blockDim.x * 4;
  for (I base = (I)blockIdx.x * blockDim.x * 4 + threadIdx.x; base < items; base += stride) {
    I idx[4];
    bool ok[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) { idx[k] = base + (I)k * blockDim.x; ok[k] = idx[k] < items; }
    if (VEC) {
      const float4* x4 = reinterpret_cast<const float4*>(x);
      float4* y4 = reinterpret_cast<float4*>(y);
      float4 v[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) if (ok[k]) v[k] = __ldcs(x4 + idx[k]);  // all four loads issued first
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        if (!ok[k]) continue;
        const I c = (idx[k] / plane_items) % C;
        const float4 t = TABLE ? table[c] : bn_entry(rm, rv, w, b, (int64_t)c, eps);
        __stcs(y4 + idx[k], bn_apply4(v[k], t));
      }
    } else {
      float v[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) if (ok[k]) v[k] = __ldcs(x + idx[k]);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        if (!ok[k]) continue;
        const I c = (idx[k] / plane_items) % C;
        const float4 t = TABLE ? table[c] : bn_entry(rm, rv, w, b, (int64_t)c, eps);
        __stcs(y + idx[k], bn_apply(v[k], t));
      }
    }
  }
}

template <bool VEC, bool TABLE, typename I>
static void bn_launch(const float* x, const float* rm, const float* rv, const float* w, const float* b, float* y,
                      int64_t items, int64_t plane_items, int64_t C, float eps, cudaStream_t stream) {
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms <= 0) sms = 132;
  int64_t blocks = (items + 1023) / 1024;  // 256 threads x 4 items per sweep step
  const int64_t cap = (int64_t)sms * 8;    // persistent: 8 resident blocks of 256 per SM
  if (blocks > cap) blocks = cap;
  if (blocks < 1) blocks = 1;
  const size_t smem = TABLE ? (size_t)C * sizeof(float4) : 0;
  bn_flat_kernel<VEC, TABLE, I><<<(unsigned)blocks, 256, smem, stream>>>(x, rm, rv, w, b, y, (I)items, (I)plane_items, (I)C, eps);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <bool VEC, bool TABLE>
static void bn_dispatch_index(const float* x, const float* rm, const float* rv, const float* w, const float* b, float* y,
                              int64_t items, int64_t plane_items, int64_t C, float eps, cudaStream_t stream) {
  // 32-bit indices while base + stride (at most items + 8 * SMs * 1024) cannot wrap
  if (items < (int64_t)3000000000LL) bn_launch<VEC, TABLE, uint32_t>(x, rm, rv, w, b, y, items, plane_items, C, eps, stream);
  else bn_launch<VEC, TABLE, int64_t>(x, rm, rv, w, b, y, items, plane_items, C, eps, stream);
}

torch::Tensor batchnorm_flat_forward(torch::Tensor x, torch::Tensor rm, torch::Tensor rv, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
  TORCH_CHECK(rm.is_cuda(), "rm must be a CUDA tensor");
  TORCH_CHECK(rm.scalar_type() == torch::kFloat32, "rm must be float32");
  TORCH_CHECK(rv.is_cuda(), "rv must be a CUDA tensor");
  TORCH_CHECK(rv.scalar_type() == torch::kFloat32, "rv must be float32");
  TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32, "w must be float32");
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  TORCH_CHECK(b.scalar_type() == torch::kFloat32, "b must be float32");
  TORCH_CHECK(x.dim() == 4, "x must be NCHW");
  auto xc = x.contiguous();
  auto rmc = rm.contiguous(); auto rvc = rv.contiguous(); auto wc = w.contiguous(); auto bc = b.contiguous();
  const int64_t C = xc.size(1), HW = xc.size(2) * xc.size(3);
  TORCH_CHECK(rmc.numel() == C && rvc.numel() == C && wc.numel() == C && bc.numel() == C, "parameter size mismatch");
  auto out = torch::empty_like(xc);
  const int64_t n = xc.numel();
  if (n == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const bool vec = (HW % 4 == 0) &&
      (((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) | reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0);
  const bool table = C <= 2048;  // 32 KB of shared memory at most
  const int64_t items = vec ? n / 4 : n, plane_items = vec ? HW / 4 : HW;
  const float* xp = xc.data_ptr<float>(); float* yp = out.data_ptr<float>();
  const float* rmp = rmc.data_ptr<float>(); const float* rvp = rvc.data_ptr<float>();
  const float* wp = wc.data_ptr<float>(); const float* bp = bc.data_ptr<float>();
  const float e = (float)eps;
  if (vec && table) bn_dispatch_index<true, true>(xp, rmp, rvp, wp, bp, yp, items, plane_items, C, e, stream);
  else if (vec) bn_dispatch_index<true, false>(xp, rmp, rvp, wp, bp, yp, items, plane_items, C, e, stream);
  else if (table) bn_dispatch_index<false, true>(xp, rmp, rvp, wp, bp, yp, items, plane_items, C, e, stream);
  else bn_dispatch_index<false, false>(xp, rmp, rvp, wp, bp, yp, items, plane_items, C, e, stream);
  return out;
}
"""

cpp_src = "torch::Tensor batchnorm_flat_forward(torch::Tensor x, torch::Tensor rm, torch::Tensor rv, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(name="t2c_batchnorm_flat_table", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["batchnorm_flat_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, channels, eps=1e-5):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, eps=eps)

    def forward(self, x):
        return _ext.batchnorm_flat_forward(x, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias, float(self.bn.eps))
