import torch
import torch.nn as nn

rows = 4096
cols = 8192


class Model(nn.Module):
    """Elementwise Kullback-Leibler terms p * log(p / q) written with xlogy, so that p == 0 gives exactly 0:
    out[r, c] = xlogy(p[r, c], p[r, c]) - xlogy(p[r, c], q[c])."""

    def __init__(self):
        super().__init__()

    def forward(self, p, q):
        return torch.xlogy(p, p) - torch.xlogy(p, q)


def get_inputs():
    # p >= 0 with about a quarter exact zeros (the zero pattern comes from randint, so every input
    # family keeps it); q > 0 per column
    keep = (torch.randint(0, 4, (rows, cols)) != 0).float()
    p = torch.rand(rows, cols).abs() * keep
    q = torch.rand(cols).abs() + 0.05
    return [p, q]


def get_init_inputs():
    return []
