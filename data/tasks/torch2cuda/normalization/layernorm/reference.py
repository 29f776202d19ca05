import torch
import torch.nn as nn

batch_size = 8192
dim = 49152


class Model(nn.Module):
    """LayerNorm over the last dimension (biased variance, eps = 1e-5) with a learned affine."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.ln = nn.LayerNorm(dim, eps=eps)
        with torch.no_grad():
            self.ln.weight.copy_(torch.randn(dim) * 0.5 + 1.0)
            self.ln.bias.copy_(torch.randn(dim) * 0.5)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    # per-row scale in [0.5, 5] and per-row offset ~ N(0, 2): mixed signs and magnitudes
    scale = torch.rand(batch_size, 1) * 4.5 + 0.5
    shift = torch.randn(batch_size, 1) * 2.0
    x = torch.randn(batch_size, dim) * scale + shift
    return [x]


def get_init_inputs():
    return [dim]
