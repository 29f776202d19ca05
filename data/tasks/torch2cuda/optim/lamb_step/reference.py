import torch
import torch.nn as nn

num_layers = 512
layer_size = 32768


class Model(nn.Module):
    """One LAMB step, out of place, on num_layers layers stored as the rows of 2-D tensors.

    m' = beta1 * m + (1 - beta1) * g,  v' = beta2 * v + (1 - beta2) * g^2
    u  = (m' / (1 - beta1^step)) / (sqrt(v' / (1 - beta2^step)) + eps) + weight_decay * p
    per row: trust = ||p|| / ||u|| (1 where either norm is 0)
    p' = p - (lr * trust) * u
    Returns (p', m', v').
    """

    def __init__(self, lr, betas, eps, weight_decay, step):
        super().__init__()
        beta1, beta2 = betas
        if not (0.0 <= beta1 < 1.0 and 0.0 <= beta2 < 1.0) or step < 1 or lr <= 0 or eps <= 0:
            raise ValueError("invalid LAMB hyper-parameters")
        self.lr, self.beta1, self.beta2 = lr, beta1, beta2
        self.eps, self.weight_decay, self.step = eps, weight_decay, step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        b1, b2 = self.beta1, self.beta2
        m = exp_avg * b1 + grad * (1.0 - b1)
        v = exp_avg_sq * b2 + (grad * grad) * (1.0 - b2)
        bc1 = 1.0 - b1 ** self.step
        bc2 = 1.0 - b2 ** self.step
        u = (m / bc1) / ((v / bc2).sqrt() + self.eps) + self.weight_decay * param
        w_norm = param.norm(dim=1, keepdim=True)
        u_norm = u.norm(dim=1, keepdim=True)
        trust = torch.where((w_norm > 0) & (u_norm > 0), w_norm / u_norm, torch.ones_like(w_norm))
        p = param - (self.lr * trust) * u
        return p, m, v


def get_inputs():
    # layers of different scales: each row's parameters and gradients have their own magnitude
    row_scale = torch.rand(num_layers, 1) * 1.5 + 0.25
    param = torch.randn(num_layers, layer_size) * row_scale
    grad = torch.randn(num_layers, layer_size) * (0.1 * row_scale)
    exp_avg = torch.randn(num_layers, layer_size) * 0.05
    exp_avg_sq = (torch.randn(num_layers, layer_size) * 0.1).square()
    return [param, grad, exp_avg, exp_avg_sq]


def get_init_inputs():
    return [1e-3, (0.9, 0.999), 1e-6, 0.01, 5]
