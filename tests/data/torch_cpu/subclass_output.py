# test-mode candidate: returns a tensor subclass (a stand-in for fake/lazy tensors)
import torch
import torch.nn as nn


class Lazy(torch.Tensor):
    pass


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return torch.where(x > 0, x, x * self.negative_slope).as_subclass(Lazy)
