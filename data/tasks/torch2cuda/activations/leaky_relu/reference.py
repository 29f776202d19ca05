import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
dim = 98304


class Model(nn.Module):
    """LeakyReLU with a configurable negative slope: y = x if x > 0 else slope * x."""

    def __init__(self, negative_slope=0.05):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return F.leaky_relu(x, negative_slope=self.negative_slope)


def get_inputs():
    # mixed magnitudes: each row gets its own scale in [0.05, 12], so the batch holds values near
    # zero, ordinary values and large ones of both signs
    scale = torch.rand(batch_size, 1) * 11.95 + 0.05
    x = torch.randn(batch_size, dim) * scale
    return [x]


def get_init_inputs():
    return [0.05]
