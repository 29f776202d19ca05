# issue 24: leaves its layout work to the harness's copy after "done". The kernel writes the result
# transposed (column-major, its writes coalesced along the rows it reads) and returns a transposed view
# with the right values; the copy of that view into the shared output buffer, after the done event,
# would do the transpose outside the timed window. The harness makes every output dense inside the
# call (torch_outputs.materialize), so the transpose is timed, and the report says it happened.
# expect: ok candidate_worker_outputs_materialized
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void lrelu_t_kernel(const float* x, float* yt, float s, long long rows, long long cols) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        long long r = i / cols, c = i % cols;
        float v = x[i];
        yt[c * rows + r] = v > 0.f ? v : v * s;
    }
}
torch::Tensor lrelu_t(torch::Tensor x, double s) {
    auto xc = x.contiguous();
    long long rows = xc.size(0), cols = xc.numel() / (rows ? rows : 1);
    auto yt = torch::empty({cols, rows}, xc.options());
    long long n = xc.numel();
    if (n > 0)
        lrelu_t_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<float>(), yt.data_ptr<float>(), (float)s, rows, cols);
    return yt;
}
"""
ext = load_inline(name="rt_lrelu_view", cpp_sources="torch::Tensor lrelu_t(torch::Tensor x, double s);",
                  cuda_sources=cuda_source, functions=["lrelu_t"])


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.s = negative_slope

    def forward(self, x):
        return ext.lrelu_t(x, self.s).t()
