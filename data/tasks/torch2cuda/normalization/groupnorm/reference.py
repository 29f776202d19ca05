import torch
import torch.nn as nn

batch_size = 96
channels = 256
num_groups = 32
height = 128
width = 128


class Model(nn.Module):
    """GroupNorm (biased variance, eps = 1e-5) over an NCHW tensor with a learned per-channel affine."""

    def __init__(self, num_groups, channels, eps=1e-5):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels, eps=eps)
        with torch.no_grad():
            self.gn.weight.copy_(torch.randn(channels) * 0.5 + 1.0)
            self.gn.bias.copy_(torch.randn(channels) * 0.5)

    def forward(self, x):
        return self.gn(x)


def get_inputs():
    scale = torch.rand(batch_size, channels, 1, 1) * 4.0 + 0.5
    shift = torch.randn(batch_size, channels, 1, 1) * 2.0
    x = torch.randn(batch_size, channels, height, width) * scale + shift
    return [x]


def get_init_inputs():
    return [num_groups, channels]
