import torch
import torch.nn as nn

rows = 8192
dim = 8192
k = 8


class Model(nn.Module):
    """The k largest values along the last dimension, in descending order (torch.topk values)."""

    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return torch.topk(x, self.k, dim=-1, largest=True, sorted=True).values


def get_inputs():
    # per-row scale and offset: mixed signs and magnitudes
    x = torch.randn(rows, dim) * (torch.rand(rows, 1) * 4.5 + 0.5) + torch.randn(rows, 1) * 2.0
    return [x]


def get_init_inputs():
    return [k]
