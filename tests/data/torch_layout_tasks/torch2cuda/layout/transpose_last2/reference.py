import torch
import torch.nn as nn


class Model(nn.Module):
    """x of shape (batch, rows, cols) -> its transpose (batch, cols, rows), contiguous."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.transpose(1, 2).contiguous()


batch = 8
rows = 4096
cols = 2048


def get_inputs():
    return [torch.randn(batch, rows, cols)]


def get_init_inputs():
    return []
