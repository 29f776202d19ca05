import torch
import torch.nn as nn

rows = 4096
dim = 16384
k = 1024


class Model(nn.Module):
    """The k largest values along the last dimension, in descending order (torch.topk values)."""

    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return torch.topk(x, self.k, dim=-1, largest=True, sorted=True).values


def get_inputs():
    # per-row scale and offset, and a heavy right tail in some rows (the k-th value moves around)
    x = torch.randn(rows, dim) * (torch.rand(rows, 1) * 4.5 + 0.5) + torch.randn(rows, 1) * 2.0
    x = x + torch.rand(rows, dim) ** 8 * (torch.rand(rows, 1) * 20.0)
    return [x]


def get_init_inputs():
    return [k]
