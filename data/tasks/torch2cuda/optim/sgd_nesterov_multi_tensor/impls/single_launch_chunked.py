# strategy: single_launch_chunked — all three tensors in ONE launch (multi-tensor apply): the tensors' pointers and a prefix sum of their 2048-element chunk counts travel in a by-value kernel argument, each block finds its (tensor, chunk) and streams it with float4, so small tensors (the bias) cost no launch of their own
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

#define NT 3
#define CHUNK 2048
#define THREADS 256

struct MultiArgs {
  const float* p[NT];
  const float* g[NT];
  const float* b[NT];
  float* po[NT];
  float* bo[NT];
  int64_t n[NT];
  int64_t first_block[NT + 1];  // blocks [first_block[t], first_block[t + 1]) belong to tensor t
  int vec[NT];
};

__device__ __forceinline__ void sgd1(float p, float g, float b, float lr, float mom, float wd, float& po, float& bo) {
  const float gg = g + wd * p;
  bo = mom * b + gg;
  po = p - lr * (gg + mom * bo);
}

__global__ void __launch_bounds__(THREADS) sgd_multi_kernel(MultiArgs a, float lr, float mom, float wd) {
  const int64_t blk = blockIdx.x;
  int t = 0;
  while (t < NT - 1 && blk >= a.first_block[t + 1]) ++t;
  const int64_t n = a.n[t];
  const int64_t lo = (blk - a.first_block[t]) * CHUNK;
  const int64_t hi = lo + CHUNK < n ? lo + CHUNK : n;
  const float *p = a.p[t], *g = a.g[t], *b = a.b[t];
  float *po = a.po[t], *bo = a.bo[t];
  int64_t scalar_from = lo;
  if (a.vec[t]) {
    const int64_t vend = (hi / 4) * 4;  // lo is a multiple of 4 (CHUNK is)
    for (int64_t i4 = lo / 4 + threadIdx.x; i4 < vend / 4; i4 += THREADS) {
      const float4 x = reinterpret_cast<const float4*>(p)[i4], y = reinterpret_cast<const float4*>(g)[i4],
                   z = reinterpret_cast<const float4*>(b)[i4];
      float4 r, s;
      sgd1(x.x, y.x, z.x, lr, mom, wd, r.x, s.x);
      sgd1(x.y, y.y, z.y, lr, mom, wd, r.y, s.y);
      sgd1(x.z, y.z, z.z, lr, mom, wd, r.z, s.z);
      sgd1(x.w, y.w, z.w, lr, mom, wd, r.w, s.w);
      reinterpret_cast<float4*>(po)[i4] = r;
      reinterpret_cast<float4*>(bo)[i4] = s;
    }
    scalar_from = vend > lo ? vend : lo;
  }
  for (int64_t i = scalar_from + threadIdx.x; i < hi; i += THREADS) sgd1(p[i], g[i], b[i], lr, mom, wd, po[i], bo[i]);
}

static uintptr_t addr(const torch::Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr<float>()); }
static void check(const torch::Tensor& t, const torch::Tensor& ref) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32 && t.is_contiguous(), "float32 contiguous CUDA tensors");
  TORCH_CHECK(t.sizes() == ref.sizes(), "a gradient or buffer is not shaped like its parameter");
}

std::vector<torch::Tensor> sgd_multi_single(std::vector<torch::Tensor> ts, double lr, double momentum, double wd) {
  TORCH_CHECK(ts.size() == 3 * NT, "nine tensors: (param, grad, buf) x 3");
  std::vector<torch::Tensor> params, bufs;
  MultiArgs a;
  a.first_block[0] = 0;
  for (int t = 0; t < NT; ++t) {
    const torch::Tensor &p = ts[3 * t], &g = ts[3 * t + 1], &b = ts[3 * t + 2];
    check(p, p); check(g, p); check(b, p);
    auto p_out = torch::empty_like(p), b_out = torch::empty_like(b);
    params.push_back(p_out);
    bufs.push_back(b_out);
    const int64_t n = p.numel();
    a.p[t] = p.data_ptr<float>(); a.g[t] = g.data_ptr<float>(); a.b[t] = b.data_ptr<float>();
    a.po[t] = p_out.data_ptr<float>(); a.bo[t] = b_out.data_ptr<float>();
    a.n[t] = n;
    a.vec[t] = ((addr(p) | addr(g) | addr(b) | addr(p_out) | addr(b_out)) & 15) == 0;
    a.first_block[t + 1] = a.first_block[t] + (n + CHUNK - 1) / CHUNK;
  }
  const int64_t blocks = a.first_block[NT];
  TORCH_CHECK(blocks < (int64_t)INT32_MAX, "too many chunks");
  if (blocks > 0) {
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    sgd_multi_kernel<<<(unsigned)blocks, THREADS, 0, stream>>>(a, (float)lr, (float)momentum, (float)wd);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  return {params[0], params[1], params[2], bufs[0], bufs[1], bufs[2]};
}
"""

cpp_src = "std::vector<torch::Tensor> sgd_multi_single(std::vector<torch::Tensor> ts, double lr, double momentum, double wd);"

_ext = load_inline(name="t2c_optim_sgd_multi_single", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["sgd_multi_single"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, lr, momentum, weight_decay):
        super().__init__()
        self.lr, self.momentum, self.weight_decay = float(lr), float(momentum), float(weight_decay)

    def forward(self, w, w_grad, w_buf, b, b_grad, b_buf, e, e_grad, e_buf):
        return _ext.sgd_multi_single([w, w_grad, w_buf, b, b_grad, b_buf, e, e_grad, e_buf], self.lr, self.momentum,
                                     self.weight_decay)
