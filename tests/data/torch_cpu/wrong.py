# test-mode candidate: ReLU instead of LeakyReLU (wrong on the negative inputs)
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()

    def forward(self, x):
        return torch.clamp(x, min=0)
