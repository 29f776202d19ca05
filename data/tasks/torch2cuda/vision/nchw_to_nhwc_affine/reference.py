import torch
import torch.nn as nn

batch_size = 16
channels = 96
height = 160
width = 160


class Model(nn.Module):
    """y = (x * scale[c] + bias[c]) permuted from NCHW to a contiguous NHWC tensor."""

    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(channels) * 0.5 + 1.0)
        self.bias = nn.Parameter(torch.randn(channels) * 0.3)

    def forward(self, x):
        y = x * self.scale.view(1, -1, 1, 1) + self.bias.view(1, -1, 1, 1)
        return y.permute(0, 2, 3, 1).contiguous()


def get_inputs():
    x = torch.randn(batch_size, channels, height, width) * 2.0
    return [x]


def get_init_inputs():
    return [channels]
