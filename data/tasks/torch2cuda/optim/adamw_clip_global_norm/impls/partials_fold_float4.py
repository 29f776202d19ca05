# strategy: partials_fold_float4 — a fixed grid writes one float4-accumulated sum of squares per block; every block of the fused update kernel folds those partials in the same order (double) into the clip coefficient, then updates p, m and v with float4 loads and stores
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define THREADS 256
#define NB_MAX 1024

struct AdamWC { float b1, omb1, b2, omb2, decay, step_size, bc2_sqrt, eps, max_norm; };

__global__ void __launch_bounds__(THREADS) sumsq_partial_kernel(const float* __restrict__ g, int64_t n, bool vec,
                                                                float* __restrict__ part) {
  const int64_t tid = (int64_t)blockIdx.x * THREADS + threadIdx.x, stride = (int64_t)gridDim.x * THREADS;
  float s = 0.f;
  int64_t start = 0;
  if (vec) {
    const float4* g4 = reinterpret_cast<const float4*>(g);
    for (int64_t i = tid; i < n / 4; i += stride) {
      const float4 a = g4[i];
      s += (a.x * a.x + a.y * a.y) + (a.z * a.z + a.w * a.w);
    }
    start = (n / 4) * 4;
  }
  for (int64_t i = start + tid; i < n; i += stride) s += g[i] * g[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  __shared__ float sh[THREADS / 32];
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < THREADS / 32; ++w) t += sh[w];
    part[blockIdx.x] = t;
  }
}

__device__ __forceinline__ void adamw1(float p, float g, float m, float v, float coef, const AdamWC& c, float& po,
                                       float& mo, float& vo) {
  const float gg = g * coef;
  mo = m * c.b1 + gg * c.omb1;
  vo = v * c.b2 + (gg * gg) * c.omb2;
  po = p * c.decay - c.step_size * (mo / (sqrtf(vo) / c.bc2_sqrt + c.eps));
}

__global__ void __launch_bounds__(THREADS) adamw_apply_kernel(const float* __restrict__ p, const float* __restrict__ g,
    const float* __restrict__ m, const float* __restrict__ v, float* __restrict__ po, float* __restrict__ mo,
    float* __restrict__ vo, int64_t n, bool vec, const float* __restrict__ part, int nb, AdamWC c) {
  __shared__ float s_coef;
  if (threadIdx.x < 32) {
    double s = 0.0;
    for (int k = threadIdx.x; k < nb; k += 32) s += part[k];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) s_coef = fminf(c.max_norm / ((float)sqrt(s) + 1e-6f), 1.0f);
  }
  __syncthreads();
  const float coef = s_coef;
  const int64_t tid = (int64_t)blockIdx.x * THREADS + threadIdx.x, stride = (int64_t)gridDim.x * THREADS;
  int64_t start = 0;
  if (vec) {
    for (int64_t i = tid; i < n / 4; i += stride) {
      const float4 a = reinterpret_cast<const float4*>(p)[i], b = reinterpret_cast<const float4*>(g)[i];
      const float4 d = reinterpret_cast<const float4*>(m)[i], e = reinterpret_cast<const float4*>(v)[i];
      float4 x, y, z;
      adamw1(a.x, b.x, d.x, e.x, coef, c, x.x, y.x, z.x);
      adamw1(a.y, b.y, d.y, e.y, coef, c, x.y, y.y, z.y);
      adamw1(a.z, b.z, d.z, e.z, coef, c, x.z, y.z, z.z);
      adamw1(a.w, b.w, d.w, e.w, coef, c, x.w, y.w, z.w);
      reinterpret_cast<float4*>(po)[i] = x;
      reinterpret_cast<float4*>(mo)[i] = y;
      reinterpret_cast<float4*>(vo)[i] = z;
    }
    start = (n / 4) * 4;
  }
  for (int64_t i = start + tid; i < n; i += stride) adamw1(p[i], g[i], m[i], v[i], coef, c, po[i], mo[i], vo[i]);
}

static void check(const torch::Tensor& t, int64_t n, const char* name) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32, name, " must be a float32 CUDA tensor");
  TORCH_CHECK(t.is_contiguous() && t.numel() == n, name, " must be contiguous with as many elements as param");
}
static uintptr_t addr(const torch::Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr<float>()); }

std::vector<torch::Tensor> adamw_clip_partials(torch::Tensor p, torch::Tensor g, torch::Tensor m, torch::Tensor v,
                                               double lr, double beta1, double beta2, double eps, double wd,
                                               double max_norm, int64_t step) {
  const int64_t n = p.numel();
  check(p, n, "param"); check(g, n, "grad"); check(m, n, "exp_avg"); check(v, n, "exp_avg_sq");
  auto p_out = torch::empty_like(p), m_out = torch::empty_like(m), v_out = torch::empty_like(v);
  if (n == 0) return {p_out, m_out, v_out};
  AdamWC c;
  c.b1 = (float)beta1; c.omb1 = (float)(1.0 - beta1); c.b2 = (float)beta2; c.omb2 = (float)(1.0 - beta2);
  c.decay = (float)(1.0 - lr * wd); c.step_size = (float)(lr / (1.0 - std::pow(beta1, (double)step)));
  c.bc2_sqrt = (float)std::sqrt(1.0 - std::pow(beta2, (double)step)); c.eps = (float)eps; c.max_norm = (float)max_norm;
  const bool vec = ((addr(p) | addr(g) | addr(m) | addr(v) | addr(p_out) | addr(m_out) | addr(v_out)) & 15) == 0;
  const int64_t units = vec && n >= 4 ? n / 4 : n;
  const int64_t want = (units + THREADS - 1) / THREADS;
  const int nb = (int)(want < NB_MAX ? want : NB_MAX);
  auto part = torch::empty({(int64_t)nb}, p.options());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  sumsq_partial_kernel<<<nb, THREADS, 0, stream>>>(g.data_ptr<float>(), n, vec, part.data_ptr<float>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const unsigned blocks = (unsigned)(want < 132 * 8 ? want : 132 * 8);
  adamw_apply_kernel<<<blocks, THREADS, 0, stream>>>(p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(),
      v.data_ptr<float>(), p_out.data_ptr<float>(), m_out.data_ptr<float>(), v_out.data_ptr<float>(), n, vec,
      part.data_ptr<float>(), nb, c);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {p_out, m_out, v_out};
}
"""

cpp_src = ("std::vector<torch::Tensor> adamw_clip_partials(torch::Tensor p, torch::Tensor g, torch::Tensor m, "
           "torch::Tensor v, double lr, double beta1, double beta2, double eps, double wd, double max_norm, "
           "int64_t step);")

_ext = load_inline(name="t2c_optim_adamw_clip_partials", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["adamw_clip_partials"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, betas, eps, weight_decay, max_norm, step):
        super().__init__()
        self.lr, self.beta1, self.beta2 = float(lr), float(betas[0]), float(betas[1])
        self.eps, self.weight_decay, self.max_norm, self.step = float(eps), float(weight_decay), float(max_norm), int(step)

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return _ext.adamw_clip_partials(param, grad, exp_avg, exp_avg_sq, self.lr, self.beta1, self.beta2, self.eps,
                                        self.weight_decay, self.max_norm, self.step)
