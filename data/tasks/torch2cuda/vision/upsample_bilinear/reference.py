import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
channels = 64
in_h = 256
in_w = 256
out_h = 512
out_w = 512


class Model(nn.Module):
    """Bilinear resize of (N, C, H, W) to (N, C, out_h, out_w) with align_corners=False."""

    def __init__(self, out_h, out_w):
        super().__init__()
        self.out_h = out_h
        self.out_w = out_w

    def forward(self, x):
        return F.interpolate(x, size=(self.out_h, self.out_w), mode="bilinear", align_corners=False)


def get_inputs():
    # per-plane scale and offset: signed values of mixed magnitudes
    scale = torch.rand(batch_size, channels, 1, 1) * 3.0 + 0.25
    shift = torch.randn(batch_size, channels, 1, 1)
    x = torch.randn(batch_size, channels, in_h, in_w) * scale + shift
    return [x]


def get_init_inputs():
    return [out_h, out_w]
