import torch
import torch.nn as nn

batch_size = 16
reduce_dim = 4096
inner = 8192


class Model(nn.Module):
    """Sum over dimension 1 of a (batch, reduce_dim, inner) tensor; output (batch, inner)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1)


def get_inputs():
    scale = torch.rand(batch_size, 1, inner) * 4.5 + 0.5
    shift = torch.randn(batch_size, 1, inner) * 0.5
    x = torch.randn(batch_size, reduce_dim, inner) * scale + shift
    return [x]


def get_init_inputs():
    return []
