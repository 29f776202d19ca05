import torch
import torch.nn as nn

batch_size = 64
channels = 128
height = 224
width = 224
kernel_size = 3


class Model(nn.Module):
    """Depthwise 2-D convolution (groups = channels, stride 1, 'same' zero padding) with bias."""

    def __init__(self, channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)
        with torch.no_grad():
            self.conv.bias.copy_(torch.randn(channels) * 0.3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    x = torch.randn(batch_size, channels, height, width) * (torch.rand(batch_size, channels, 1, 1) * 3.75 + 0.25)
    return [x]


def get_init_inputs():
    return [channels, kernel_size]
