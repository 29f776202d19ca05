import torch
import torch.nn as nn

batch = 48
n = 1024
m = 1024
diagonal = -1


class Model(nn.Module):
    """Lower-triangular part of each matrix of a (batch, n, m) tensor: torch.tril(x, diagonal)."""

    def __init__(self, diagonal):
        super().__init__()
        self.diagonal = diagonal

    def forward(self, x):
        return torch.tril(x, diagonal=self.diagonal)


def get_inputs():
    x = torch.randn(batch, n, m) * 2.0 + 0.5
    return [x]


def get_init_inputs():
    return [diagonal]
