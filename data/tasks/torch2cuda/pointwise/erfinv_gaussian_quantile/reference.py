import math

import torch
import torch.nn as nn

rows = 4096
cols = 16384


class Model(nn.Module):
    """Inverse-CDF sampling of per-column Gaussians: z = sqrt(2) * erfinv(clamp(2u - 1, -clip, clip)),
    out[r, c] = mu[c] + sigma[c] * z[r, c] (clip = 1 - 1e-6 keeps every level finite)."""

    def __init__(self, cols):
        super().__init__()
        self.mu = nn.Parameter(torch.randn(cols))
        self.sigma = nn.Parameter(torch.rand(cols) * 2.0 + 0.25)
        self.clip = 1.0 - 1e-6

    def forward(self, u):
        z = torch.erfinv((2.0 * u - 1.0).clamp(-self.clip, self.clip)) * math.sqrt(2.0)
        return self.mu + self.sigma * z


def get_inputs():
    # uniform levels, including the far tails where erfinv is steep
    u = torch.rand(rows, cols)
    return [u]


def get_init_inputs():
    return [cols]
