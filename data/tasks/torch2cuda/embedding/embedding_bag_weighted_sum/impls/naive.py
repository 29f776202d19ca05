# strategy: naive (weak) — one thread per (bag, feature) with the bag index fastest across threads: neighbouring threads read scalars of different random rows (uncoalesced) and walk their bag's ids and weights from global memory
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void ebws_naive_kernel(const int64_t* ids, const int64_t* offsets, const float* psw, const float* w,
                                  float* y, int64_t B, int64_t T, int64_t V, int64_t D) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * D) return;
  const int64_t bag = i % B, d = i / B;   // bag fastest: every thread of a warp reads another row
  int64_t b = offsets[bag], e = offsets[bag + 1];
  if (e > T) e = T;
  float s = 0.0f;
  for (int64_t j = b; j < e; ++j) {
    const int64_t id = ids[j];
    s += (id >= 0 && id < V) ? psw[j] * w[id * D + d] : NAN;
  }
  y[bag * D + d] = s;
}

torch::Tensor ebws_naive_forward(torch::Tensor ids, torch::Tensor offsets, torch::Tensor psw, torch::Tensor weight) {
  TORCH_CHECK(ids.is_cuda() && ids.scalar_type() == torch::kInt64 && ids.dim() == 1, "ids must be CUDA int64 (T,)");
  TORCH_CHECK(offsets.is_cuda() && offsets.scalar_type() == torch::kInt64 && offsets.dim() == 1 && offsets.size(0) >= 1,
              "offsets must be CUDA int64 (B + 1,)");
  TORCH_CHECK(psw.is_cuda() && psw.scalar_type() == torch::kFloat32 && psw.dim() == 1 && psw.size(0) == ids.size(0),
              "per_sample_weights must be CUDA float32 (T,)");
  TORCH_CHECK(weight.is_cuda() && weight.scalar_type() == torch::kFloat32 && weight.dim() == 2, "weight must be CUDA float32 (V, D)");
  auto ic = ids.contiguous(); auto oc = offsets.contiguous(); auto pc = psw.contiguous(); auto wc = weight.contiguous();
  const int64_t T = ic.size(0), B = oc.size(0) - 1, V = wc.size(0), D = wc.size(1);
  auto out = torch::empty({B, D}, wc.options());
  if (B * D == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  ebws_naive_kernel<<<(unsigned)((B * D + 255) / 256), 256, 0, stream>>>(
      ic.data_ptr<int64_t>(), oc.data_ptr<int64_t>(), pc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(),
      B, T, V, D);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}
"""

cpp_src = "torch::Tensor ebws_naive_forward(torch::Tensor ids, torch::Tensor offsets, torch::Tensor psw, torch::Tensor weight);"

_ext = load_inline(name="t2c_embedding_bag_weighted_sum_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["ebws_naive_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, num_embeddings, dim):
        super().__init__()
        self.bag = nn.EmbeddingBag(num_embeddings, dim, mode="sum", include_last_offset=True)

    def forward(self, ids, offsets, per_sample_weights):
        return _ext.ebws_naive_forward(ids, offsets, per_sample_weights, self.bag.weight)
