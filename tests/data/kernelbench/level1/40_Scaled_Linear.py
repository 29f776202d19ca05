import torch
import torch.nn as nn


class Model(nn.Module):
    """
    A linear layer whose output is multiplied by a constant (fixture in KernelBench's format).
    """
    def __init__(self, in_features, out_features, scale):
        super(Model, self).__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x):
        return self.fc(x) * self.scale

batch_size = 8
in_features = 64
out_features = 32
scale = 0.5
unused_constant = 7

def get_inputs():
    return [torch.rand(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features, scale]
