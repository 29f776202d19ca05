import torch
import torch.nn as nn

batch_size = 8
in_channels = 64
out_channels = 128
groups = 4
height = 256
width = 256


class Model(nn.Module):
    """Grouped 3x3 convolution, stride 1, zero padding 1, with bias: output channel co sees only the
    in_channels / groups input channels of its group (co // (out_channels / groups))."""

    def __init__(self, in_channels, out_channels, groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1, groups=groups)
        with torch.no_grad():
            self.conv.bias.copy_(torch.randn(out_channels) * 0.3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width) * (torch.rand(batch_size, in_channels, 1, 1) * 2.5 + 0.25)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, groups]
