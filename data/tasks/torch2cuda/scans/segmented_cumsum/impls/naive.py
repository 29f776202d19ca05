# strategy: naive (weak) — a single thread computes every segment's start offset sequentially, then one thread per segment scans its segment sequentially (load-imbalanced, uncoalesced across the warp)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__global__ void seg_offsets_serial_kernel(const int64_t* lengths, int64_t* starts, int64_t S) {
  int64_t acc = 0;
  for (int64_t k = 0; k < S; ++k) { starts[k] = acc; acc += lengths[k]; }
}

__global__ void seg_scan_naive_kernel(const float* x, const int64_t* lengths, const int64_t* starts, float* y, int64_t S, int64_t N) {
  const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= S) return;
  const int64_t s0 = starts[k];
  int64_t s1 = s0 + lengths[k];
  if (s1 > N) s1 = N;
  float acc = 0.0f;
  for (int64_t i = s0; i < s1; ++i) { acc += x[i]; y[i] = acc; }
}

torch::Tensor segcumsum_naive(torch::Tensor x, torch::Tensor lengths) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 1, "x must be a 1D float32 CUDA tensor");
  TORCH_CHECK(lengths.is_cuda() && lengths.scalar_type() == torch::kInt64 && lengths.dim() == 1, "lengths must be 1D int64 on CUDA");
  auto xc = x.contiguous();
  auto lc = lengths.contiguous();
  const int64_t N = xc.numel(), S = lc.numel();
  auto y = torch::empty_like(xc);
  if (N == 0 || S == 0) return y;
  auto starts = torch::empty({S}, lc.options());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  seg_offsets_serial_kernel<<<1, 1, 0, stream>>>(lc.data_ptr<int64_t>(), starts.data_ptr<int64_t>(), S);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  seg_scan_naive_kernel<<<(unsigned)((S + 127) / 128), 128, 0, stream>>>(xc.data_ptr<float>(), lc.data_ptr<int64_t>(),
      starts.data_ptr<int64_t>(), y.data_ptr<float>(), S, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor segcumsum_naive(torch::Tensor x, torch::Tensor lengths);"

_ext = load_inline(name="t2c_scans_segcumsum_naive", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["segcumsum_naive"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, lengths):
        return _ext.segcumsum_naive(x, lengths)
