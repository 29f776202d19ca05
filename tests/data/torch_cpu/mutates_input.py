# test-mode candidate: correct output, computed in place in the input
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        x.copy_(torch.where(x > 0, x, x * self.negative_slope))
        return x.clone()
