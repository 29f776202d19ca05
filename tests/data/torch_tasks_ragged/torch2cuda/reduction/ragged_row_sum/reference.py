import torch
import torch.nn as nn


class Model(nn.Module):
    """Row sums (keepdim)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=-1, keepdim=True)


rows = 8192
cols = 8192


def get_inputs():
    # the defect: the width depends on the seed
    return [torch.randn(rows, int(torch.randint(cols, 2 * cols, ()))) + 0.5]


def get_init_inputs():
    return []
