import torch
import torch.nn as nn

rows = 4096
length = 16384


class Model(nn.Module):
    """Inclusive log-sum-exp scan along the last dimension."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.logcumsumexp(x, dim=-1)


def get_inputs():
    # per-row spread: rows where one early term dominates for long and rows where the sum grows steadily
    scale = torch.rand(rows, 1) * 4.0 + 0.5
    x = torch.randn(rows, length) * scale - 1.0
    return [x]


def get_init_inputs():
    return []
