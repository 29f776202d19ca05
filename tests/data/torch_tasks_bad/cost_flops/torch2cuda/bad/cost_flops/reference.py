import torch
import torch.nn as nn


class Model(nn.Module):
    """LeakyReLU with a fixed negative slope."""

    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


batch_size = 4096
dim = 16384
negative_slope = 0.05


def get_inputs():
    # signed, with a spread of magnitudes
    x = torch.randn(batch_size, dim) * torch.exp(torch.randn(batch_size, 1))
    return [x]


def get_init_inputs():
    return [negative_slope]
