# issue 24: a token kernel and the transpose returned as a view, so that the harness's own copy does the
# work. The harness makes a view dense inside the call, and inside a profiled call's profile: the copy
# is timed and weighed against the candidate's own kernels like any other.
# root: torch_layout_tasks
# task: torch2cuda/layout/transpose_last2
# expect: hack_suspected copy and fill kernels took
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void token_kernel(float* scratch) { scratch[0] = 1.f; }
void token(torch::Tensor scratch) {
    token_kernel<<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(scratch.data_ptr<float>());
}
"""
ext = load_inline(name="rt_view_token", cpp_sources="void token(torch::Tensor scratch);", cuda_sources=cuda_source,
                  functions=["token"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.scratch = None

    def forward(self, x):
        if self.scratch is None:
            self.scratch = torch.empty(1, device=x.device)
        ext.token(self.scratch)
        return x.transpose(1, 2)
