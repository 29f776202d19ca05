import torch
import torch.nn as nn

batch = 32
c1 = 64
c2 = 128
c3 = 32
length = 3969


class Model(nn.Module):
    """Concatenation of three (batch, c_i, length) tensors along the channel dimension."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b, c):
        return torch.cat([a, b, c], dim=1)


def get_inputs():
    a = torch.randn(batch, c1, length) * 2.0 + 1.0
    b = torch.randn(batch, c2, length) - 0.5
    c = torch.randn(batch, c3, length) * 0.5 + 3.0
    return [a, b, c]


def get_init_inputs():
    return []
