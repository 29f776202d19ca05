import torch
import torch.nn as nn

batch_size = 8
in_channels = 128
out_channels = 128
height = 192
width = 192


class Model(nn.Module):
    """1x1 convolution with bias: y[n, co, h, w] = b[co] + sum_ci W[co, ci] * x[n, ci, h, w]."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1)
        with torch.no_grad():
            self.conv.bias.copy_(torch.randn(out_channels) * 0.3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width) * (torch.rand(batch_size, in_channels, 1, 1) * 2.5 + 0.25)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels]
