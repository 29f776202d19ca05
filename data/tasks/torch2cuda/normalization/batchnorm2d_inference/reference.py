import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 64
channels = 96
height = 256
width = 256


class Model(nn.Module):
    """BatchNorm2d in inference form: per-channel (x - running_mean) / sqrt(running_var + eps) * weight + bias."""

    def __init__(self, channels, eps=1e-5):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, eps=eps)
        with torch.no_grad():
            self.bn.weight.copy_(torch.randn(channels) * 0.5 + 1.0)
            self.bn.bias.copy_(torch.randn(channels) * 0.5)
            self.bn.running_mean.copy_(torch.randn(channels) * 2.0)
            self.bn.running_var.copy_(torch.rand(channels) * 4.0 + 0.1)

    def forward(self, x):
        # always the inference path (running statistics), whatever the module's train/eval mode
        return F.batch_norm(x, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias,
                            training=False, eps=self.bn.eps)


def get_inputs():
    scale = torch.rand(1, channels, 1, 1) * 4.0 + 0.5
    x = torch.randn(batch_size, channels, height, width) * scale + torch.randn(1, channels, 1, 1) * 2.0
    return [x]


def get_init_inputs():
    return [channels]
