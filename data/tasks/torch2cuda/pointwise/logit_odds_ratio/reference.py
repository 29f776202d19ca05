import torch
import torch.nn as nn

rows = 4096
cols = 16384


class Model(nn.Module):
    """Log odds ratio with a clamped logit: out[r, c] = logit(p[r, c], eps) - logit(q[r, 0], eps), where
    logit(x, eps) = log(z / (1 - z)) with z = clamp(x, eps, 1 - eps)."""

    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, p, q):
        return torch.logit(p, eps=self.eps) - torch.logit(q, eps=self.eps)


def get_inputs():
    # probabilities spread over [0, 1], including values inside the clamped margins at both ends
    p = torch.rand(rows, cols) * 1.002 - 0.001
    q = torch.rand(rows, 1) * 0.9 + 0.05
    return [p, q]


def get_init_inputs():
    return [1e-3]
