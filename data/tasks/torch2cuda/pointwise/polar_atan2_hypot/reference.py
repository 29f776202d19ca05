import torch
import torch.nn as nn

rows = 4096
cols = 8192


class Model(nn.Module):
    """Cartesian to polar coordinates, interleaved: out[..., 0] = hypot(x, y), out[..., 1] = atan2(y, x)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return torch.stack((torch.hypot(x, y), torch.atan2(y, x)), dim=-1)


def get_inputs():
    # points of every quadrant with per-row radii in [0.01, 20]
    scale = torch.rand(rows, 1) * 19.99 + 0.01
    x = torch.randn(rows, cols) * scale
    y = torch.randn(rows, cols) * scale
    return [x, y]


def get_init_inputs():
    return []
