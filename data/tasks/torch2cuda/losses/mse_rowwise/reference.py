import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8192
dim = 49152


class Model(nn.Module):
    """Per-sample mean squared error: ((pred - target)^2).mean over the last dim; output (batch,)."""

    def __init__(self):
        super().__init__()

    def forward(self, pred, target):
        return F.mse_loss(pred, target, reduction="none").mean(dim=-1)


def get_inputs():
    pred = torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 4.5 + 0.5)
    target = pred * (torch.rand(batch_size, 1) * 1.5) + torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 2.0 + 0.01)
    return [pred, target]


def get_init_inputs():
    return []
