import torch
import torch.nn as nn

batch_size = 32
in_channels = 128
out_channels = 128
length = 16384
kernel_size = 5


class Model(nn.Module):
    """1-D convolution (stride 1, 'same' zero padding) with bias over (batch, channels, length)."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        with torch.no_grad():
            self.conv.bias.copy_(torch.randn(out_channels) * 0.3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    x = torch.randn(batch_size, in_channels, length) * (torch.rand(batch_size, in_channels, 1) * 3.75 + 0.25)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
