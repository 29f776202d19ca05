import torch
import torch.nn as nn
import torch.nn.functional as F

batch = 16
channels = 64
height = 160
width = 160
kernel_size = 3
stride = 2
padding = 1
dilation = 1


class Model(nn.Module):
    """im2col of an NCHW image: F.unfold(x, kernel_size, dilation, padding, stride)."""

    def __init__(self, kernel_size, stride, padding, dilation):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x):
        return F.unfold(x, kernel_size=self.kernel_size, dilation=self.dilation, padding=self.padding, stride=self.stride)


def get_inputs():
    x = torch.randn(batch, channels, height, width) * 1.5 + 0.5
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]
