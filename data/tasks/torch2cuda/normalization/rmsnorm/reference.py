import torch
import torch.nn as nn

batch_size = 8192
dim = 49152


class Model(nn.Module):
    """RMSNorm over the last dimension: x * rsqrt(mean(x^2) + eps) * weight (eps = 1e-6)."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.randn(dim) * 0.5 + 1.0)

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


def get_inputs():
    # per-row scale in [0.5, 5] and per-row offset ~ N(0, 2): mixed signs and magnitudes
    scale = torch.rand(batch_size, 1) * 4.5 + 0.5
    shift = torch.randn(batch_size, 1) * 2.0
    x = torch.randn(batch_size, dim) * scale + shift
    return [x]


def get_init_inputs():
    return [dim]
