import math

import torch
import torch.nn as nn

rows = 4096
cols = 8192


class Model(nn.Module):
    """One Adafactor step (no first moment, fixed learning rate) on a (rows, cols) weight, out of place.

    beta2 = 1 - step^decay_rate
    g2 = grad^2 + eps1
    r' = beta2 * r + (1 - beta2) * mean(g2, dim=1)        (rows,)
    c' = beta2 * c + (1 - beta2) * mean(g2, dim=0)        (cols,)
    u  = grad / sqrt(outer(r', c') / mean(r'))
    u  = u / max(1, RMS(u) / clip_threshold)
    p' = param - lr * (u + weight_decay * param)
    Returns (p', r', c').
    """

    def __init__(self, lr, eps1, clip_threshold, decay_rate, weight_decay, step):
        super().__init__()
        if step < 2 or decay_rate >= 0 or lr <= 0 or eps1 <= 0 or clip_threshold <= 0:
            raise ValueError("invalid Adafactor hyper-parameters")
        self.lr, self.eps1, self.clip_threshold = lr, eps1, clip_threshold
        self.beta2 = 1.0 - math.pow(step, decay_rate)
        self.weight_decay = weight_decay

    def forward(self, param, grad, row_state, col_state):
        b2 = self.beta2
        g2 = grad * grad + self.eps1
        r = row_state * b2 + g2.mean(dim=1) * (1.0 - b2)
        c = col_state * b2 + g2.mean(dim=0) * (1.0 - b2)
        v = torch.outer(r, c) / r.mean()
        u = grad / v.sqrt()
        rms = u.square().mean().sqrt()
        u = u / torch.clamp(rms / self.clip_threshold, min=1.0)
        p = param - self.lr * (u + self.weight_decay * param)
        return p, r, c


def get_inputs():
    param = torch.randn(rows, cols)
    # gradients whose scale varies by row and by column (what the factored moment models)
    grad = torch.randn(rows, cols) * (torch.rand(rows, 1) * 0.2 + 0.02) * (torch.rand(1, cols) + 0.5)
    row_state = (torch.randn(rows) * 0.05).square() + 1e-4
    col_state = (torch.randn(cols) * 0.05).square() + 1e-4
    return [param, grad, row_state, col_state]


def get_init_inputs():
    return [1e-2, 1e-30, 1.0, -0.8, 0.01, 10]
