import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm over the last dimension with a learned affine, on rows far from zero."""

    def __init__(self, dim: int):
        super().__init__()
        self.ln = nn.LayerNorm(dim)
        with torch.no_grad():
            self.ln.weight.copy_(torch.randn(dim) * 0.5 + 1.0)
            self.ln.bias.copy_(torch.randn(dim) * 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)


rows = 64
dim = 256


def get_inputs():
    # unit spread around 30: well conditioned as written; the hidden family "near_zero" (randn x 1e-3)
    # leaves a spread of 1e-3 around 30, where float32 rounding of the mean alone moves the output by
    # ~1e-3, ten times the tolerance (the case of data/tasks' layernorm on the H200, 2026-12-03)
    return [torch.randn(rows, dim) + 30.0]


def get_init_inputs():
    return [dim]
