import torch
import torch.nn as nn

N = 4096
M = 4096
D = 4096


class Model(nn.Module):
    """Cosine-similarity matrix: out[i, j] = a[i] . b[j] / (max(||a[i]||, eps) * max(||b[j]||, eps))."""

    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, a, b):
        an = a / a.norm(dim=-1, keepdim=True).clamp_min(self.eps)
        bn = b / b.norm(dim=-1, keepdim=True).clamp_min(self.eps)
        return an @ bn.t()


def get_inputs():
    # rows of very different norms around a shared direction (similarities are not all near zero)
    shared = torch.randn(1, D) * 0.5
    a = (torch.randn(N, D) + shared) * (torch.rand(N, 1) * 20.0 + 0.01)
    b = (torch.randn(M, D) + shared) * (torch.rand(M, 1) * 20.0 + 0.01)
    return [a, b]


def get_init_inputs():
    return [1e-8]
