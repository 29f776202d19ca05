# strategy: block_per_layer — one block per layer: pass 1 writes the moments and reduces both squared norms (warp shuffles + shared memory), pass 2 re-reads the row (L2-hot) and applies the trust-scaled update; float4 when rows allow it
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

struct LambC { float b1, omb1, b2, omb2, bc1, bc2, eps, wd, lr; };

__device__ __forceinline__ float lamb_dir(float p, float mn, float vn, const LambC& c) {
  return (mn / c.bc1) / (sqrtf(vn / c.bc2) + c.eps) + c.wd * p;
}
// both sums over the block; every thread gets them. blockDim.x is a multiple of 32.
__device__ __forceinline__ void block_sum2(float& a, float& b) {
  __shared__ float sa[32], sb[32];
  for (int o = 16; o > 0; o >>= 1) {
    a += __shfl_xor_sync(0xffffffffu, a, o);
    b += __shfl_xor_sync(0xffffffffu, b, o);
  }
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  if (lane == 0) { sa[wid] = a; sb[wid] = b; }
  __syncthreads();
  if (wid == 0) {
    float x = lane < nw ? sa[lane] : 0.f, y = lane < nw ? sb[lane] : 0.f;
    for (int o = 16; o > 0; o >>= 1) {
      x += __shfl_xor_sync(0xffffffffu, x, o);
      y += __shfl_xor_sync(0xffffffffu, y, o);
    }
    if (lane == 0) { sa[0] = x; sb[0] = y; }
  }
  __syncthreads();
  a = sa[0];
  b = sb[0];
}

template <bool VEC>
__global__ void lamb_row_kernel(const float* __restrict__ p, const float* __restrict__ g, const float* __restrict__ m,
                                const float* __restrict__ v, float* __restrict__ po, float* __restrict__ mo,
                                float* __restrict__ vo, int64_t cols, LambC c) {
  const int64_t off = (int64_t)blockIdx.x * cols;
  const float *pr = p + off, *gr = g + off, *mr = m + off, *vr = v + off;
  float *por = po + off, *mor = mo + off, *vor = vo + off;
  float sp = 0.f, su = 0.f;
  if (VEC) {
    const int64_t c4 = cols / 4;
    for (int64_t i = threadIdx.x; i < c4; i += blockDim.x) {
      const float4 a = reinterpret_cast<const float4*>(pr)[i], gg = reinterpret_cast<const float4*>(gr)[i];
      const float4 mm = reinterpret_cast<const float4*>(mr)[i], vv = reinterpret_cast<const float4*>(vr)[i];
      float4 mn, vn;
      mn.x = mm.x * c.b1 + gg.x * c.omb1; vn.x = vv.x * c.b2 + (gg.x * gg.x) * c.omb2;
      mn.y = mm.y * c.b1 + gg.y * c.omb1; vn.y = vv.y * c.b2 + (gg.y * gg.y) * c.omb2;
      mn.z = mm.z * c.b1 + gg.z * c.omb1; vn.z = vv.z * c.b2 + (gg.z * gg.z) * c.omb2;
      mn.w = mm.w * c.b1 + gg.w * c.omb1; vn.w = vv.w * c.b2 + (gg.w * gg.w) * c.omb2;
      reinterpret_cast<float4*>(mor)[i] = mn;
      reinterpret_cast<float4*>(vor)[i] = vn;
      const float u0 = lamb_dir(a.x, mn.x, vn.x, c), u1 = lamb_dir(a.y, mn.y, vn.y, c);
      const float u2 = lamb_dir(a.z, mn.z, vn.z, c), u3 = lamb_dir(a.w, mn.w, vn.w, c);
      sp += (a.x * a.x + a.y * a.y) + (a.z * a.z + a.w * a.w);
      su += (u0 * u0 + u1 * u1) + (u2 * u2 + u3 * u3);
    }
  } else {
    for (int64_t i = threadIdx.x; i < cols; i += blockDim.x) {
      const float a = pr[i], gg = gr[i];
      const float mn = mr[i] * c.b1 + gg * c.omb1, vn = vr[i] * c.b2 + (gg * gg) * c.omb2;
      mor[i] = mn;
      vor[i] = vn;
      const float u = lamb_dir(a, mn, vn, c);
      sp += a * a;
      su += u * u;
    }
  }
  block_sum2(sp, su);  // its barriers also make this block's moment writes visible to all its threads
  const float wn = sqrtf(sp), un = sqrtf(su);
  const float s = c.lr * ((wn > 0.f && un > 0.f) ? wn / un : 1.f);
  if (VEC) {
    const int64_t c4 = cols / 4;
    for (int64_t i = threadIdx.x; i < c4; i += blockDim.x) {
      const float4 a = reinterpret_cast<const float4*>(pr)[i];
      const float4 mn = reinterpret_cast<const float4*>(mor)[i], vn = reinterpret_cast<const float4*>(vor)[i];
      float4 r;
      r.x = a.x - s * lamb_dir(a.x, mn.x, vn.x, c);
      r.y = a.y - s * lamb_dir(a.y, mn.y, vn.y, c);
      r.z = a.z - s * lamb_dir(a.z, mn.z, vn.z, c);
      r.w = a.w - s * lamb_dir(a.w, mn.w, vn.w, c);
      reinterpret_cast<float4*>(por)[i] = r;
    }
  } else {
    for (int64_t i = threadIdx.x; i < cols; i += blockDim.x) {
      const float a = pr[i];
      por[i] = a - s * lamb_dir(a, mor[i], vor[i], c);
    }
  }
}

static void check(const torch::Tensor& t, const torch::Tensor& ref, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32, name, " must be a float32 CUDA tensor");
  TORCH_CHECK(t.is_contiguous() && t.sizes() == ref.sizes(), name, " must be contiguous and shaped like param");
}
static uintptr_t addr(const torch::Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr<float>()); }

std::vector<torch::Tensor> lamb_block(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v,
                                      double lr, double beta1, double beta2, double eps, double wd, int64_t step) {
  TORCH_CHECK(p.dim() == 2, "param must be (num_layers, layer_size)");
  check(p, p, "param"); check(g, p, "grad"); check(m, p, "exp_avg"); check(v, p, "exp_avg_sq");
  const int64_t rows = p.size(0), cols = p.size(1);
  auto p_out = torch::empty_like(p), m_out = torch::empty_like(m), v_out = torch::empty_like(v);
  if (p.numel() == 0) return {p_out, m_out, v_out};
  LambC c;
  c.b1 = (float)beta1; c.omb1 = (float)(1.0 - beta1); c.b2 = (float)beta2; c.omb2 = (float)(1.0 - beta2);
  c.bc1 = (float)(1.0 - std::pow(beta1, (double)step)); c.bc2 = (float)(1.0 - std::pow(beta2, (double)step));
  c.eps = (float)eps; c.wd = (float)wd; c.lr = (float)lr;
  const bool vec = cols % 4 == 0 && ((addr(p) | addr(g) | addr(m) | addr(v) | addr(p_out) | addr(m_out) |
                                      addr(v_out)) & 15) == 0;
  const int threads = cols >= 16384 ? 512 : (cols >= 1024 ? 256 : (cols >= 128 ? 128 : 32));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  if (vec)
    lamb_row_kernel<true><<<(unsigned)rows, threads, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(),
        m.data_ptr<float>(), v.data_ptr<float>(), p_out.data_ptr<float>(), m_out.data_ptr<float>(),
        v_out.data_ptr<float>(), cols, c);
  else
    lamb_row_kernel<false><<<(unsigned)rows, threads, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(),
        m.data_ptr<float>(), v.data_ptr<float>(), p_out.data_ptr<float>(), m_out.data_ptr<float>(),
        v_out.data_ptr<float>(), cols, c);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, m_out, v_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> lamb_block(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v, "
           "double lr, double beta1, double beta2, double eps, double wd, int64_t step);")

_ext = load_inline(name="t2c_optim_lamb_block", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["lamb_block"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, betas, eps, weight_decay, step):
        super().__init__()
        self.lr, self.beta1, self.beta2 = float(lr), float(betas[0]), float(betas[1])
        self.eps, self.weight_decay, self.step = float(eps), float(weight_decay), int(step)

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return _ext.lamb_block(param, grad, exp_avg, exp_avg_sq, self.lr, self.beta1, self.beta2, self.eps,
                               self.weight_decay, self.step)
