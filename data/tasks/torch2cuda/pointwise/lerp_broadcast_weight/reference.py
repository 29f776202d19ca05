import torch
import torch.nn as nn

rows = 4096
cols = 8192


class Model(nn.Module):
    """Linear interpolation with a tensor weight broadcast over the rows:
    out[r, c] = lerp(start[r, c], end[r, c], weight[c]). PyTorch evaluates it as
    start + w * (end - start) when |w| < 0.5 and end - (end - start) * (1 - w) otherwise."""

    def __init__(self):
        super().__init__()

    def forward(self, start, end, weight):
        return torch.lerp(start, end, weight)


def get_inputs():
    start = torch.randn(rows, cols) * 3.0
    end = torch.randn(rows, cols) * 3.0 + 1.0
    # weights in [-0.25, 1.25]: both branches of lerp and some extrapolation
    weight = torch.rand(cols) * 1.5 - 0.25
    return [start, end, weight]


def get_init_inputs():
    return []
