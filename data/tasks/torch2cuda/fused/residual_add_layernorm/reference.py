import torch
import torch.nn as nn

batch_size = 8192
dim = 32768


class Model(nn.Module):
    """Residual add followed by LayerNorm: LayerNorm(x + residual) over the last dim, learned affine."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.ln = nn.LayerNorm(dim, eps=eps)
        with torch.no_grad():
            self.ln.weight.copy_(torch.randn(dim) * 0.5 + 1.0)
            self.ln.bias.copy_(torch.randn(dim) * 0.5)

    def forward(self, x, residual):
        return self.ln(x + residual)


def get_inputs():
    x = torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 4.5 + 0.5)
    residual = torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 2.0 + 0.1) + torch.randn(batch_size, 1) * 2.0
    return [x, residual]


def get_init_inputs():
    return [dim]
