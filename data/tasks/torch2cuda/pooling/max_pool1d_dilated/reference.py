import torch
import torch.nn as nn

batch_size = 32
channels = 256
length = 8192
kernel_size = 5
stride = 2
padding = 2
dilation = 3
ceil_mode = True


class Model(nn.Module):
    """1-D max pooling over (N, C, L) with stride, dilation, implicit -inf padding and ceil_mode."""

    def __init__(self, kernel_size, stride, padding, dilation, ceil_mode):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation,
                                 ceil_mode=ceil_mode)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    # per-row scale and a negative offset: many windows are all negative, so a 0 (not -inf) pad is wrong
    x = torch.randn(batch_size, channels, length) * (torch.rand(batch_size, channels, 1) * 3.0 + 0.1) - 2.0
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation, ceil_mode]
