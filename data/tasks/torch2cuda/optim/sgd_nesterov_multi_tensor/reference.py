import torch
import torch.nn as nn

out_features = 2048
in_features = 4096
vocab = 4096


class Model(nn.Module):
    """SGD with Nesterov momentum (dampening 0) and L2 weight decay, applied to each of three parameter tensors.

    g    = grad + weight_decay * p
    buf' = momentum * buf + g
    p'   = p - lr * (g + momentum * buf')
    Returns (weight', bias', embed', weight_buf', bias_buf', embed_buf').
    """

    def __init__(self, lr, momentum, weight_decay):
        super().__init__()
        self.lr, self.momentum, self.weight_decay = lr, momentum, weight_decay

    def step(self, p, grad, buf):
        g = grad + self.weight_decay * p
        b = self.momentum * buf + g
        return p - self.lr * (g + self.momentum * b), b

    def forward(self, w, w_grad, w_buf, b, b_grad, b_buf, e, e_grad, e_buf):
        w2, wb = self.step(w, w_grad, w_buf)
        b2, bb = self.step(b, b_grad, b_buf)
        e2, eb = self.step(e, e_grad, e_buf)
        return w2, b2, e2, wb, bb, eb


def get_inputs():
    def triple(*shape, scale):
        return [torch.randn(*shape) * scale, torch.randn(*shape) * (0.1 * scale), torch.randn(*shape) * (0.05 * scale)]

    return (triple(out_features, in_features, scale=0.05) + triple(out_features, scale=0.5) +
            triple(vocab, in_features, scale=1.0))


def get_init_inputs():
    return [0.01, 0.9, 1e-4]
