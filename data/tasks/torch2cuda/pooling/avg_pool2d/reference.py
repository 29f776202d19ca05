import torch
import torch.nn as nn

batch_size = 12
channels = 128
height = 224
width = 224
kernel_size = 3
stride = 2
padding = 1
ceil_mode = False
count_include_pad = False


class Model(nn.Module):
    """2-D average pooling over NCHW (square window, zero padding, PyTorch's divisor rules)."""

    def __init__(self, kernel_size, stride, padding, ceil_mode, count_include_pad):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                                 count_include_pad=count_include_pad)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    # per-plane scale in [0.1, 4.1] and offset ~ N(0, 1): border windows with and without padding differ
    scale = torch.rand(batch_size, channels, 1, 1) * 4.0 + 0.1
    x = torch.randn(batch_size, channels, height, width) * scale + torch.randn(batch_size, channels, 1, 1)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding, ceil_mode, count_include_pad]
