import math

import torch
import torch.nn as nn

numel = 16777216


class Model(nn.Module):
    """clip_grad_norm_(grad, max_norm) then one AdamW step, out of place.

    coef = min(max_norm / (||grad||_2 + 1e-6), 1);  g = coef * grad
    m' = beta1 * m + (1 - beta1) * g,  v' = beta2 * v + (1 - beta2) * g^2
    p' = param * (1 - lr * weight_decay) - (lr / (1 - beta1^step)) * m' / (sqrt(v') / sqrt(1 - beta2^step) + eps)
    Returns (p', m', v').
    """

    def __init__(self, lr, betas, eps, weight_decay, max_norm, step):
        super().__init__()
        beta1, beta2 = betas
        if not (0.0 <= beta1 < 1.0 and 0.0 <= beta2 < 1.0) or step < 1 or lr <= 0 or eps <= 0 or max_norm <= 0:
            raise ValueError("invalid AdamW hyper-parameters")
        self.lr, self.beta1, self.beta2 = lr, beta1, beta2
        self.eps, self.weight_decay, self.max_norm, self.step = eps, weight_decay, max_norm, step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        b1, b2 = self.beta1, self.beta2
        total = grad.norm()
        coef = torch.clamp(self.max_norm / (total + 1e-6), max=1.0)
        g = grad * coef
        m = exp_avg * b1 + g * (1.0 - b1)
        v = exp_avg_sq * b2 + (g * g) * (1.0 - b2)
        step_size = self.lr / (1.0 - b1 ** self.step)
        bc2_sqrt = math.sqrt(1.0 - b2 ** self.step)
        p = param * (1.0 - self.lr * self.weight_decay) - step_size * (m / (v.sqrt() / bc2_sqrt + self.eps))
        return p, m, v


def get_inputs():
    param = torch.randn(numel)
    grad = torch.randn(numel) * 0.01
    exp_avg = torch.randn(numel) * 0.01
    exp_avg_sq = (torch.randn(numel) * 0.01).square() + 1e-6  # never negative, never tiny
    return [param, grad, exp_avg, exp_avg_sq]


def get_init_inputs():
    return [1e-3, (0.9, 0.999), 1e-8, 0.05, 1.0, 20]
