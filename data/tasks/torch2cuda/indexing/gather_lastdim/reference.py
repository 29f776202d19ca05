import torch
import torch.nn as nn

rows = 6144
cols = 4096
num_idx = 4096


class Model(nn.Module):
    """torch.gather along the last dimension of a (rows, cols) tensor with a (rows, num_idx) int64 index."""

    def __init__(self):
        super().__init__()

    def forward(self, x, index):
        return torch.gather(x, 1, index)


def get_inputs():
    x = torch.randn(rows, cols) * 2.0 + 0.5
    index = torch.randint(0, cols, (rows, num_idx))
    return [x, index]


def get_init_inputs():
    return []
