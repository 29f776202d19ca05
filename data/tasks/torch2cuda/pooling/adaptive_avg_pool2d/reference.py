import torch
import torch.nn as nn

batch_size = 16
channels = 512
height = 97
width = 97
out_h = 7
out_w = 7


class Model(nn.Module):
    """Adaptive average pooling of an NCHW tensor to (out_h, out_w)."""

    def __init__(self, out_h, out_w):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d((out_h, out_w))

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    # per-plane offset ~ N(0, 2) and scale in [0.2, 3.2]
    x = torch.randn(batch_size, channels, height, width) * (torch.rand(batch_size, channels, 1, 1) * 3.0 + 0.2) \
        + torch.randn(batch_size, channels, 1, 1) * 2.0
    return [x]


def get_init_inputs():
    return [out_h, out_w]
