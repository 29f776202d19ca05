import torch
import torch.nn as nn

rows = 4096
length = 16384


class Model(nn.Module):
    """Inclusive cumulative product along the last dimension."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.cumprod(x, dim=-1)


def get_inputs():
    # factors 1 + 0.02 * N(0, 1), the noise clamped to +-4 (|factor| <= 1.08 under every input family, so
    # running products stay finite); about one factor in 64 is negated, so the sign of the
    # product flips along each row
    sign = 1.0 - 2.0 * (torch.randint(0, 64, (rows, length)) == 0).float()
    x = (1.0 + 0.02 * torch.randn(rows, length).clamp(-4.0, 4.0)) * sign
    return [x]


def get_init_inputs():
    return []
