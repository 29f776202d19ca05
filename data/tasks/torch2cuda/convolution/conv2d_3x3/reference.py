import torch
import torch.nn as nn

batch_size = 32
in_channels = 64
out_channels = 128
height = 128
width = 128
kernel_size = 3


class Model(nn.Module):
    """2-D convolution (stride 1, 'same' zero padding) with bias."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        with torch.no_grad():
            self.conv.bias.copy_(torch.randn(out_channels) * 0.3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width) * (torch.rand(batch_size, in_channels, 1, 1) * 3.75 + 0.25)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
