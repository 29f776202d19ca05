import torch
import torch.nn as nn
import torch.nn.functional as F

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False

batch_size = 8
channels = 1024
seq_len = 8192
kernel_size = 4


class Model(nn.Module):
    """Causal depthwise conv1d on (B, C, L): left-pad K-1 zeros, groups = C, weight (C, K), bias (C)."""

    def __init__(self, channels, kernel_size):
        super().__init__()
        self.kernel_size = kernel_size
        self.weight = nn.Parameter(torch.randn(channels, kernel_size) / kernel_size ** 0.5)
        self.bias = nn.Parameter(torch.randn(channels) * 0.3)

    def forward(self, x):
        xp = F.pad(x, (self.kernel_size - 1, 0))
        return F.conv1d(xp, self.weight.unsqueeze(1), self.bias, groups=x.shape[1])


def get_inputs():
    scale = torch.rand(batch_size, channels, 1) * 2.0 + 0.5
    x = torch.randn(batch_size, channels, seq_len) * scale
    return [x]


def get_init_inputs():
    return [channels, kernel_size]
