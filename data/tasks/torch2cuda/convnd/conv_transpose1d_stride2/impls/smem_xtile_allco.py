# strategy: smem_xtile_allco — a block owns 64 input positions of one sample and every output channel: it stages the input tile with its one-sample halo (16 channels x 66 positions) and the matching weight rows (16 x C_out x 4) in shared memory, chunk by chunk over C_in; 256 threads = 64 positions x 4 channel lanes, each lane accumulating the even and odd outputs of its channels (co = lane, lane + 4, ...) in registers
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define TM 64
#define LANES 4
#define CIC 16
#define COMAX 64
#define PER (COMAX / LANES)

__global__ void deconv1d_xtile_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                      const float* __restrict__ b, float* __restrict__ y,
                                      int64_t CI, int CO, int64_t L) {
  __shared__ float xs[CIC][TM + 2];
  __shared__ float ws[CIC][COMAX][4];
  const int tm = threadIdx.x % TM;
  const int lane = threadIdx.x / TM;
  const int64_t m0 = (int64_t)blockIdx.x * TM;
  const int64_t m = m0 + tm;
  const int64_t n = blockIdx.y;
  float ev[PER], od[PER];
#pragma unroll
  for (int j = 0; j < PER; ++j) { ev[j] = 0.0f; od[j] = 0.0f; }
  for (int64_t c0 = 0; c0 < CI; c0 += CIC) {
    const int cn = (int)((CI - c0) < CIC ? (CI - c0) : CIC);
    __syncthreads();
    for (int e = threadIdx.x; e < cn * (TM + 2); e += blockDim.x) {
      const int ci = e / (TM + 2), p = e % (TM + 2);
      const int64_t i = m0 - 1 + p;
      xs[ci][p] = (i >= 0 && i < L) ? x[(n * CI + c0 + ci) * L + i] : 0.0f;
    }
    for (int e = threadIdx.x; e < cn * CO * 4; e += blockDim.x) {
      const int ci = e / (CO * 4), r = e % (CO * 4);
      ws[ci][r / 4][r % 4] = w[(c0 + ci) * CO * 4 + r];
    }
    __syncthreads();
    for (int ci = 0; ci < cn; ++ci) {
      const float xl = xs[ci][tm], xm = xs[ci][tm + 1], xr = xs[ci][tm + 2];
#pragma unroll
      for (int j = 0; j < PER; ++j) {
        const int co = lane + j * LANES;
        if (co < CO) {
          ev[j] += xm * ws[ci][co][1] + xl * ws[ci][co][3];
          od[j] += xr * ws[ci][co][0] + xm * ws[ci][co][2];
        }
      }
    }
  }
  if (m >= L) return;
  const int64_t LO = 2 * L;
#pragma unroll
  for (int j = 0; j < PER; ++j) {
    const int co = lane + j * LANES;
    if (co < CO) {
      float* dst = y + (n * CO + co) * LO + 2 * m;
      const float bb = b[co];
      dst[0] = ev[j] + bb;
      dst[1] = od[j] + bb;
    }
  }
}

torch::Tensor deconv1d_xtile_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
              b.scalar_type() == torch::kFloat32, "inputs must be float32");
  TORCH_CHECK(x.dim() == 3 && w.dim() == 3 && w.size(2) == 4, "x is (N, C_in, L), w is (C_in, C_out, 4)");
  auto xc = x.contiguous();
  auto wc = w.contiguous();
  auto bc = b.contiguous();
  const int64_t N = xc.size(0), CI = xc.size(1), L = xc.size(2);
  const int64_t CO = wc.size(1);
  TORCH_CHECK(wc.size(0) == CI && bc.numel() == CO, "weight/bias shape mismatch");
  TORCH_CHECK(CO <= COMAX, "this kernel keeps at most 64 output channels per block");
  auto y = torch::empty({N, CO, 2 * L}, xc.options());
  if (N == 0 || CO == 0 || L == 0) return y;
  TORCH_CHECK(N <= 65535, "grid too large");
  dim3 grid((unsigned)((L + TM - 1) / TM), (unsigned)N);
  deconv1d_xtile_kernel<<<grid, TM * LANES, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), CI, (int)CO, L);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
"""

cpp_src = "torch::Tensor deconv1d_xtile_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

_ext = load_inline(name="t2c_convnd_deconv1d_xtile", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["deconv1d_xtile_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size=4, stride=2, padding=1)

    def forward(self, x):
        return _ext.deconv1d_xtile_forward(x, self.deconv.weight, self.deconv.bias)
