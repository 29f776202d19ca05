import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Applies ReLU to its input (a fixture in KernelBench's problem format, written for cudaperf's tests).
    """
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)

batch_size = 16
dim = 1000

def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]

def get_init_inputs():
    return []  # no special initialization
