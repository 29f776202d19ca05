# strategy: fused_peeled — one launch for all three sources: a (batch x source) job table in the kernel arguments, each job a contiguous run; the run's head is peeled until the destination is 16-byte aligned, then every thread stores aligned float4 vectors (loaded as float4 when the source shares the alignment, as 4 scalars otherwise) and the tail is finished with scalars, so misaligned runs (odd length) still get 128-bit stores
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

constexpr int kThreads = 256;
constexpr int kVecPerThread = 4;
constexpr int64_t kChunkVec = (int64_t)kThreads * kVecPerThread;   // float4 per block and job

struct Jobs {
  const float* src[3];
  int64_t run[3];      // floats per batch in source i
  int64_t off[3];      // slice start (floats) inside an output batch
};

__global__ void __launch_bounds__(kThreads) cat3_fused_kernel(Jobs jobs, float* __restrict__ y, int64_t stride, int64_t B) {
  for (int64_t job = blockIdx.y; job < 3 * B; job += gridDim.y) {
    const int i = (int)(job % 3);
    const int64_t b = job / 3;
    const int64_t n = jobs.run[i];
    if (n == 0) continue;
    const float* s = jobs.src[i] + b * n;
    float* d = y + b * stride + jobs.off[i];
    const int64_t head = ((16 - (int64_t)(reinterpret_cast<uintptr_t>(d) & 15)) & 15) / 4;   // floats until d is aligned
    const int64_t h = head < n ? head : n;
    const int64_t nv = (n - h) / 4;
    const int64_t v0 = (int64_t)blockIdx.x * kChunkVec;
    if (v0 > nv) continue;                    // (blocks past the body still handle nothing)
    if (blockIdx.x == 0) {                    // head and tail scalars
      if (threadIdx.x < h) d[threadIdx.x] = __ldg(s + threadIdx.x);
      const int64_t t0 = h + 4 * nv;
      if (threadIdx.x < n - t0) d[t0 + threadIdx.x] = __ldg(s + t0 + threadIdx.x);
    }
    const float* sb = s + h;
    float4* db = reinterpret_cast<float4*>(d + h);
    const int64_t v1 = v0 + kChunkVec < nv ? v0 + kChunkVec : nv;
    if ((reinterpret_cast<uintptr_t>(sb) & 15) == 0) {
      const float4* sv = reinterpret_cast<const float4*>(sb);
      for (int64_t v = v0 + threadIdx.x; v < v1; v += kThreads) db[v] = __ldg(sv + v);
    } else {
      for (int64_t v = v0 + threadIdx.x; v < v1; v += kThreads) {
        const float* p = sb + 4 * v;
        db[v] = make_float4(__ldg(p), __ldg(p + 1), __ldg(p + 2), __ldg(p + 3));
      }
    }
  }
}

torch::Tensor cat3_fused(torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda() && c.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32 && c.scalar_type() == torch::kFloat32, "float32 only");
  TORCH_CHECK(a.dim() == 3 && b.dim() == 3 && c.dim() == 3, "inputs must be 3D");
  auto ac = a.contiguous(); auto bc = b.contiguous(); auto cc = c.contiguous();
  const int64_t N = ac.size(0), L = ac.size(2);
  TORCH_CHECK(bc.size(0) == N && cc.size(0) == N && bc.size(2) == L && cc.size(2) == L, "shape mismatch");
  const int64_t C1 = ac.size(1), C2 = bc.size(1), C3 = cc.size(1), Ct = C1 + C2 + C3;
  auto y = torch::empty({N, Ct, L}, ac.options());
  if (y.numel() == 0) return y;
  Jobs jobs;
  jobs.src[0] = ac.data_ptr<float>(); jobs.src[1] = bc.data_ptr<float>(); jobs.src[2] = cc.data_ptr<float>();
  jobs.run[0] = C1 * L; jobs.run[1] = C2 * L; jobs.run[2] = C3 * L;
  jobs.off[0] = 0; jobs.off[1] = C1 * L; jobs.off[2] = (C1 + C2) * L;
  int64_t longest = jobs.run[0];
  if (jobs.run[1] > longest) longest = jobs.run[1];
  if (jobs.run[2] > longest) longest = jobs.run[2];
  const int64_t gx = (longest / 4 + kChunkVec - 1) / kChunkVec + 1;
  TORCH_CHECK(gx < (1LL << 31), "runs too long");
  const int64_t jobs_n = 3 * N;
  dim3 grid((unsigned)gx, (unsigned)(jobs_n < 65535 ? jobs_n : 65535));
  cat3_fused_kernel<<<grid, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(jobs, y.data_ptr<float>(), Ct * L, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor cat3_fused(torch::Tensor a, torch::Tensor b, torch::Tensor c);"

_ext = load_inline(name="t2c_layout_cat3_fused", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["cat3_fused"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b, c):
        return _ext.cat3_fused(a, b, c)
