import math

import torch
import torch.nn as nn

numel = 16777216


class Model(nn.Module):
    """One Adam step (amsgrad off) on a flat parameter, out of place.

    g  = grad + weight_decay * param                 (L2 penalty folded into the gradient)
    m' = beta1 * m + (1 - beta1) * g
    v' = beta2 * v + (1 - beta2) * g * g
    p' = param - (lr / (1 - beta1^step)) * m' / (sqrt(v') / sqrt(1 - beta2^step) + eps)
    Returns (p', m', v'); the input tensors are left untouched.
    """

    def __init__(self, lr, betas, eps, weight_decay, step):
        super().__init__()
        beta1, beta2 = betas
        if not (0.0 <= beta1 < 1.0 and 0.0 <= beta2 < 1.0) or step < 1 or lr <= 0 or eps <= 0:
            raise ValueError("invalid Adam hyper-parameters")
        self.lr, self.beta1, self.beta2 = lr, beta1, beta2
        self.eps, self.weight_decay, self.step = eps, weight_decay, step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        b1, b2 = self.beta1, self.beta2
        g = grad + self.weight_decay * param
        m = exp_avg * b1 + g * (1.0 - b1)
        v = exp_avg_sq * b2 + (g * g) * (1.0 - b2)
        step_size = self.lr / (1.0 - b1 ** self.step)
        bc2_sqrt = math.sqrt(1.0 - b2 ** self.step)
        denom = v.sqrt() / bc2_sqrt + self.eps
        p = param - step_size * (m / denom)
        return p, m, v


def get_inputs():
    param = torch.randn(numel)
    grad = torch.randn(numel) * 0.1
    exp_avg = torch.randn(numel) * 0.05
    exp_avg_sq = (torch.randn(numel) * 0.1).square()  # a second moment: never negative
    return [param, grad, exp_avg, exp_avg_sq]


def get_init_inputs():
    return [1e-3, (0.9, 0.999), 1e-8, 0.01, 10]
