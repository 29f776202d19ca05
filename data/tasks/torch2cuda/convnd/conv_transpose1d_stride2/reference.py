import torch
import torch.nn as nn

batch_size = 16
in_channels = 64
out_channels = 32
length = 65536


class Model(nn.Module):
    """ConvTranspose1d(kernel_size=4, stride=2, padding=1) with bias: output length 2 * L.
    y[n, co, t] = b[co] + sum_{ci, k : t = 2 i - 1 + k} x[n, ci, i] * w[ci, co, k]."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size=4, stride=2, padding=1)
        with torch.no_grad():
            self.deconv.bias.copy_(torch.randn(out_channels) * 0.3)

    def forward(self, x):
        return self.deconv(x)


def get_inputs():
    x = torch.randn(batch_size, in_channels, length) * (torch.rand(batch_size, in_channels, 1) * 2.5 + 0.25)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels]
