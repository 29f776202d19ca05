import torch
import torch.nn as nn

batch_size = 96
channels = 128
height = 224
width = 224
kernel_size = 3
stride = 2
padding = 1


class Model(nn.Module):
    """2-D max pooling over NCHW (window kernel_size, given stride, implicit -inf padding)."""

    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    x = torch.randn(batch_size, channels, height, width) * (torch.rand(batch_size, channels, 1, 1) * 4.0 + 0.1) - 1.0
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]
